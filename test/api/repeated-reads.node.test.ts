/**
 * Repeated reads of unchanged data are answered from the answer computed the first time
 * (src/core/read-cache.ts). Every test here reads once to fill the cache, then changes what the
 * answer depends on, and reads again: a cache that missed the change fails it.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createMock, type AnswersMock } from '../../src/index.ts';
import { mockRequest, send } from '../support/in-process.ts';
import { KEYS } from '../support/keys.ts';

const FAQ = 'col_2hhcv50bdbx8m10xm4dp';

let mock: AnswersMock;
beforeEach(async () => {
  mock = await createMock();
});
afterEach(() => mock.controls.reset());

const names = async (key: string = KEYS.full) =>
  (await send(mock, { path: '/collections', key, query: { limit: '100' } })).json.data.map(
    (collection: { name: string }) => collection.name,
  );

describe('repeated reads', () => {
  it('answers a repeated read with the same answer, computed once', async () => {
    const { response: first } = await mock.handle(mockRequest({ path: `/collections/${FAQ}` }));
    const { response: again } = await mock.handle(mockRequest({ path: `/collections/${FAQ}` }));
    expect(again.status).toBe(200);
    expect(again).toBe(first);
    expect(Object.isFrozen(again)).toBe(true);
  });

  it('answers afresh once the clock was set, advanced or let go', async () => {
    const read = () => mock.handle(mockRequest({ path: `/collections/${FAQ}` }));
    let last = await read();
    for (const change of [
      () => mock.controls.setTime('2030-01-01T00:00:00.000Z'),
      () => mock.controls.advanceTime(1_000),
      () => mock.controls.useRealTime(),
    ]) {
      change();
      const next = await read();
      expect(next).not.toBe(last);
      expect(next).toEqual(last);
      last = next;
    }
  });

  it('sees a write through the API at once', async () => {
    const before = await names();
    await send(mock, { method: 'POST', path: '/collections', body: { name: 'Added' } });
    expect(await names()).toEqual([...before, 'Added']);
  });

  it('sees a write through mock.db at once', async () => {
    await names();
    await mock.db.collections.update((q) => q.where({ id: FAQ }), {
      data: (draft) => {
        draft.name = 'Renamed by a test';
      },
    });
    expect(await names()).toContain('Renamed by a test');
    const one = await send(mock, { path: `/collections/${FAQ}` });
    expect(one.json.name).toBe('Renamed by a test');
  });

  it('sees an object count change when an object is created in the collection', async () => {
    const count = async () => (await send(mock, { path: `/collections/${FAQ}` })).json.object_count;
    const before = await count();
    await send(mock, {
      method: 'POST',
      path: `/collections/${FAQ}/objects`,
      body: { content: { text: 'new' } },
    });
    expect(await count()).toBe(before + 1);
  });

  it('gives each key its own answer: another account, a key without access, no key', async () => {
    await names(KEYS.full);
    expect(await names(KEYS.globex)).not.toEqual(await names(KEYS.full));
    expect((await send(mock, { path: '/collections', key: KEYS.inactive })).status).toBe(401);
    expect((await send(mock, { path: '/collections', key: null })).status).toBe(401);
    const byHeader = await send(mock, {
      path: '/collections',
      key: null,
      headers: { 'x-answers-api-key': KEYS.globex },
    });
    expect(byHeader.json.data.map((c: { name: string }) => c.name)).toEqual(
      await names(KEYS.globex),
    );
    // An empty Authorization beside a good key is refused, not taken for "no Authorization".
    const empty = await send(mock, {
      path: '/collections',
      key: null,
      headers: { 'x-answers-api-key': KEYS.globex, authorization: '' },
    });
    expect(empty.status).toBe(401);
  });

  it('answers a different query or cursor afresh', async () => {
    const two = await send(mock, { path: '/collections', query: { limit: '2' } });
    const three = await send(mock, { path: '/collections', query: { limit: '3' } });
    expect(two.json.data).toHaveLength(2);
    expect(three.json.data).toHaveLength(3);
    const next = await send(mock, {
      path: '/collections',
      query: { limit: '2', cursor: two.json.next_cursor },
    });
    expect(next.json.data[0].id).toBe(three.json.data[2].id);
  });

  it('still takes a queued failure, and still honours Prefer', async () => {
    await send(mock, { path: `/collections/${FAQ}` });
    mock.controls.failNext('getCollection', 500);
    expect((await send(mock, { path: `/collections/${FAQ}` })).status).toBe(500);
    expect((await send(mock, { path: `/collections/${FAQ}` })).status).toBe(200);
    const preferred = await send(mock, {
      path: `/collections/${FAQ}`,
      headers: { prefer: 'code=429' },
    });
    expect(preferred.status).toBe(429);
  });

  it('keeps refusals too, and answers afresh once what refused changed', async () => {
    const id = 'col_madebythetestsofcach';
    expect((await send(mock, { path: `/collections/${id}` })).status).toBe(404);
    expect((await send(mock, { path: `/collections/${id}` })).status).toBe(404);
    const at = '2026-03-01T10:00:00.000Z';
    await mock.db.collections.create({
      id,
      account_id: 'acme',
      name: 'Made by the test',
      metadata: {},
      created_at: at,
      updated_at: at,
    });
    expect((await send(mock, { path: `/collections/${id}` })).status).toBe(200);

    const newKey = 'answers_test_new_key_for_cache';
    expect((await send(mock, { path: '/collections', key: newKey })).status).toBe(401);
    const state = mock.controls.export();
    state.api_keys.push({ ...state.api_keys[0]!, key: newKey });
    await mock.controls.load(state);
    expect((await send(mock, { path: '/collections', key: newKey })).status).toBe(200);
  });

  it('answers afresh after a reset and after a load', async () => {
    await send(mock, { method: 'POST', path: '/collections', body: { name: 'Gone after reset' } });
    expect(await names()).toContain('Gone after reset');
    await mock.controls.reset();
    expect(await names()).not.toContain('Gone after reset');
    const state = mock.controls.export();
    state.collections = state.collections.filter((c) => c.id !== FAQ);
    state.objects = state.objects.filter((o) => o.collection_id !== FAQ);
    await mock.controls.load(state);
    expect((await send(mock, { path: `/collections/${FAQ}` })).status).toBe(404);
  });
});
