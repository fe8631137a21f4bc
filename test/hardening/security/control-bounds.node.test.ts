/**
 * Controls validate what they queue (issue "Safe on a developer's machine", part 2): every count,
 * delay and instant has a documented bound, a forced status must be one the operation can answer,
 * and a queue costs memory by kind, not by count. Each case once hurt the process: `times: 1e8`
 * blocked it 5.9 s and took 2 GB, `times: 2^53-1` aborted it, `advance_ms: 1e300` made every
 * later write a 500, and 418 was queued and then broke the next call with a 400 about `Prefer`.
 */
import { describe, expect, it } from 'vitest';
import { createMock, type AnswersMock } from '../../../src/index.ts';
import { KEYS } from '../../support/keys.ts';

async function control(mock: AnswersMock, method: string, path: string, body?: unknown) {
  const headers = new Headers({ 'content-type': 'application/json' });
  const { response } = await mock.handle(
    {
      method,
      path: `/__mock${path}`,
      query: new URLSearchParams(),
      headers,
      body: body === undefined ? undefined : new TextEncoder().encode(JSON.stringify(body)),
    },
    { control: true },
  );
  return { status: response.status, json: response.body ? JSON.parse(response.body) : undefined };
}

async function createCollection(mock: AnswersMock, name: string) {
  const { response } = await mock.handle({
    method: 'POST',
    path: '/api/answers/v1/collections',
    query: new URLSearchParams(),
    headers: new Headers({
      authorization: `Bearer ${KEYS.full}`,
      'content-type': 'application/json',
    }),
    body: new TextEncoder().encode(JSON.stringify({ name })),
  });
  return response.status;
}

describe('control bounds', () => {
  it.each([
    [{ operation_id: 'listCollections', status: 500, times: 1e8 }, /times/],
    [{ operation_id: 'listCollections', status: 500, times: 2 ** 53 - 1 }, /times/],
    [{ operation_id: 'listCollections', status: 418 }, /cannot be made to answer 418.*500/],
    [{ operation_id: 'createCollection', status: 405 }, /cannot be made to answer 405/],
    [{ operation_id: 'noSuchOperation', status: 500 }, /operation_id/],
  ])('refuses the failure %j with 400 and queues nothing', async (body, message) => {
    const mock = await createMock();
    const answer = await control(mock, 'POST', '/failures', body);
    expect(answer.status).toBe(400);
    expect(answer.json.code).toBe('invalid_control_request');
    expect(answer.json.detail).toMatch(message);
    expect(await createCollection(mock, 'still served')).toBe(201);
  });

  it('keeps a long queue as one run: the largest count costs what one does', async () => {
    const mock = await createMock();
    expect(
      (
        await control(mock, 'POST', '/failures', {
          operation_id: 'createCollection',
          status: 500,
          times: 10_000,
        })
      ).status,
    ).toBe(204);
    expect(await createCollection(mock, 'a')).toBe(500);
    // The same status again joins the run; its count is capped at the bound.
    expect(
      (
        await control(mock, 'POST', '/failures', {
          operation_id: 'createCollection',
          status: 500,
          times: 10_000,
        })
      ).status,
    ).toBe(204);
    expect((await control(mock, 'DELETE', '/failures')).status).toBe(204);
    expect(await createCollection(mock, 'b')).toBe(201);
  });

  it('answers queued failures in order, each as many times as asked', async () => {
    const mock = await createMock();
    for (const [status, times] of [
      [500, 2],
      [409, 1],
    ] as const)
      await control(mock, 'POST', '/failures', { operation_id: 'createCollection', status, times });
    const seen = [];
    for (let i = 0; i < 4; i++) seen.push(await createCollection(mock, `n${i}`));
    expect(seen).toEqual([500, 500, 409, 201]);
  });

  it.each([
    [{ advance_ms: 1e300 }],
    [{ advance_ms: Date.parse('9999-12-31T00:00:00Z') }],
    [{ now: '0001-01-01T00:00:00.000Z' }],
    [{ now: '1969-12-31T23:59:59.000Z' }],
  ])('refuses the clock %j and keeps serving writes', async (body) => {
    const mock = await createMock({ now: '2026-01-01T00:00:00.000Z' });
    const answer = await control(mock, 'POST', '/clock', body);
    expect(answer.status).toBe(400);
    expect(mock.controls.now()).toBe('2026-01-01T00:00:00.000Z');
    expect(await createCollection(mock, 'after the clock')).toBe(201);
  });

  it('refuses a latency past ten minutes', async () => {
    const mock = await createMock();
    const answer = await control(mock, 'PUT', '/latency', { ms: 600_001 });
    expect(answer.status).toBe(400);
    expect(answer.json.errors).toEqual([
      expect.objectContaining({ pointer: '/ms', message: expect.stringMatching(/600000/) }),
    ]);
  });
});
