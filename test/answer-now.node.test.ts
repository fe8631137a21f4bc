/**
 * The same-turn answer the Node server uses on its hot path (core/answer-now.ts): a read is
 * answered at once only when nothing can interleave with it, and otherwise waits its turn.
 */
import { expect, it } from 'vitest';
import { answerNow } from '../src/core/answer-now.ts';
import { createMock, type AnswersMock } from '../src/index.ts';
import { emptyState } from '../src/seed/empty-state.ts';
import { mockRequest } from './support/in-process.ts';

const request = (method: string, path: string, body?: unknown) =>
  mockRequest({ method, path, body });

const names = (answer: { response: { body?: string | undefined } }) =>
  (JSON.parse(answer.response.body!) as { data: Array<{ name: string }> }).data.map((c) => c.name);

it('answers a read on an idle mock in the same turn, as handleDetailed does', async () => {
  const mock = await createMock();
  const now = answerNow(mock, request('GET', '/collections'));
  expect(now).not.toBeInstanceOf(Promise);
  expect(now).toEqual(await mock.handleDetailed(request('GET', '/collections')));
});

it('makes a read that arrives while a write runs wait for it, and see it', async () => {
  const mock = await createMock({ initialState: emptyState });
  const write = answerNow(mock, request('POST', '/collections', { name: 'first' }));
  expect(write).toBeInstanceOf(Promise);
  const read = answerNow(mock, request('GET', '/collections'));
  expect(read).toBeInstanceOf(Promise);
  expect((await write).response.status).toBe(201);
  expect(names(await read)).toEqual(['first']);
  // Once the queue is idle again, reads are answered at once.
  const later = answerNow(mock, request('GET', '/collections'));
  expect(later).not.toBeInstanceOf(Promise);
});

it('queues a read behind a reset in progress', async () => {
  const mock = await createMock({ initialState: emptyState });
  await mock.handle(request('POST', '/collections', { name: 'gone after reset' }));
  const reset = mock.controls.reset();
  const read = answerNow(mock, request('GET', '/collections'));
  expect(read).toBeInstanceOf(Promise);
  await reset;
  expect(names(await read)).toEqual([]);
});

it('waits out a latency set with the controls', async () => {
  const mock = await createMock({ latencyMs: 1 });
  expect(answerNow(mock, request('GET', '/collections'))).toBeInstanceOf(Promise);
});

it('never answers behind the back of a wrapper that replaces handleDetailed', async () => {
  const mock = await createMock();
  const wrapped: AnswersMock = {
    ...mock,
    handleDetailed: async () => ({ response: { status: 418, headers: {} } }),
  };
  expect((await answerNow(wrapped, request('GET', '/collections'))).response.status).toBe(418);
});
