/**
 * Every request is answered in one synchronous step (docs/decisions/one-way-to-answer.md):
 * nothing can interleave with a write, a cascade delete or a search, and a state replacement
 * (reset, load) is built apart and swapped in whole (test/data/replacement-in-slices.node.test.ts:
 * a large one answers requests from the state as it was until then).
 */
import { expect, it } from 'vitest';
import { createMock } from '../../src/index.ts';
import { emptyState } from '../../src/seed/empty-state.ts';
import { mockRequest } from '../support/in-process.ts';

const request = (method: string, path: string, body?: unknown) =>
  mockRequest({ method, path, body });

const names = (body: string | undefined) =>
  (JSON.parse(body!) as { data: Array<{ name: string }> }).data.map((c) => c.name);

it('deletes a large collection in one step: a search and a read sent meanwhile see it whole', async () => {
  const mock = await createMock({ initialState: emptyState, now: '2026-11-23T12:00:00.000Z' });
  const { response: created } = await mock.handle(
    request('POST', '/collections', { name: 'large' }),
  );
  const collection = JSON.parse(created.body!) as { id: string };
  for (let i = 0; i < 3_000; i++) {
    await mock.db.objects.create({
      id: `obj_${String(i).padStart(20, '0')}`,
      account_id: 'acme',
      collection_id: collection.id,
      content: { text: `shared words and a word of its own w${i}` },
      created_at: mock.controls.now(),
      updated_at: mock.controls.now(),
      version: 1,
    });
  }
  const deleted = mock.handle(request('DELETE', `/collections/${collection.id}`));
  const search = mock.handle(request('POST', '/search', { query: 'shared' }));
  const read = mock.handle(request('GET', `/collections/${collection.id}`));
  expect((await deleted).response.status).toBe(204);
  expect((await read).response.status).toBe(404);
  expect(JSON.parse((await search).response.body!)).toMatchObject({ data: [], total: 0 });
  expect(mock.controls.export().objects).toEqual([]);
});

it('swaps a small reset in within the call: requests and mock.db writes sent after it see it whole', async () => {
  const mock = await createMock({ initialState: emptyState });
  await mock.handle(request('POST', '/collections', { name: 'before' }));
  const reset = mock.controls.reset();
  const read = mock.handle(request('GET', '/collections'));
  const write = mock.handle(request('POST', '/collections', { name: 'after' }));
  const seeded = mock.db.collections.create({
    id: 'col_seededduringreset000',
    account_id: 'acme',
    name: 'seeded',
    metadata: {},
    created_at: '2027-01-01T00:00:00.000Z',
    updated_at: '2027-01-01T00:00:00.000Z',
  });
  await reset;
  expect(names((await read).response.body)).toEqual([]);
  expect((await write).response.status).toBe(201);
  await seeded;
  expect(mock.controls.export().collections.map((c) => c.name)).toEqual(['after', 'seeded']);
});

it('makes a mock.db write at once when nothing is pending: the API serves it without an await', async () => {
  const mock = await createMock({ initialState: emptyState });
  void mock.db.collections.create({
    id: 'col_writtenatonce0000000',
    account_id: 'acme',
    name: 'at once',
    metadata: {},
    created_at: '2027-01-01T00:00:00.000Z',
    updated_at: '2027-01-01T00:00:00.000Z',
  });
  expect(mock.db.collections.count()).toBe(1);
  expect(names((await mock.handle(request('GET', '/collections'))).response.body)).toEqual([
    'at once',
  ]);
});

it('runs loads and resets in the order they were asked for', async () => {
  const mock = await createMock({ initialState: emptyState });
  await mock.handle(request('POST', '/collections', { name: 'kept' }));
  const kept = mock.controls.export();
  const reset = mock.controls.reset();
  const load = mock.controls.load(kept);
  await Promise.all([reset, load]);
  expect(names((await mock.handle(request('GET', '/collections'))).response.body)).toEqual([
    'kept',
  ]);
});

it('restores the clock with the data on reset, in the same step', async () => {
  const mock = await createMock({ initialState: emptyState, now: '2026-01-01T00:00:00.000Z' });
  mock.controls.setTime('2027-06-01T00:00:00.000Z');
  await mock.handle(request('POST', '/collections', { name: 'later' }));
  await mock.controls.reset();
  expect(mock.controls.now()).toBe('2026-01-01T00:00:00.000Z');
});

it('waits out a latency set with the controls before answering', async () => {
  const mock = await createMock({ initialState: emptyState, latencyMs: 5 });
  const started = performance.now();
  expect((await mock.handle(request('GET', '/collections'))).response.status).toBe(200);
  expect(performance.now() - started).toBeGreaterThanOrEqual(4);
});
