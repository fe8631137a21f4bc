/**
 * A reset or load is built apart in slices and swapped in whole (issue 34, item 4). At 1,000,000
 * objects every request waited behind one for 26 to 79 s; now the old state answers between the
 * slices, and no request waits longer than a slice (the figure: docs/robustness.md, measured by
 * `npm run bench`). Here at a small scale: the mechanism, not the time.
 */
import { describe, expect, it } from 'vitest';
import { createMock, emptyState, type AnswersMock, type Snapshot } from '../../src/index.ts';
import { send } from '../support/in-process.ts';

const AT = Date.parse('2026-01-01T00:00:00.000Z');
const COLLECTION = 'col_slicesslicesslices00';

/** A state of `objects` objects in one collection: several slices of a load. */
function largeState(objects: number): Snapshot {
  const state = emptyState();
  const at = new Date(AT).toISOString();
  state.collections.push({
    id: COLLECTION,
    account_id: 'acme',
    name: 'large',
    metadata: {},
    created_at: at,
    updated_at: at,
  });
  for (let i = 0; i < objects; i++) {
    const created = new Date(AT + 1 + i).toISOString();
    state.objects.push({
      id: `obj_${String(i).padStart(20, '0')}`,
      account_id: 'acme',
      collection_id: COLLECTION,
      content: { text: `object ${i}` },
      created_at: created,
      updated_at: created,
      version: 1,
    });
  }
  return state;
}

const names = async (mock: AnswersMock) =>
  ((await send(mock, { path: '/collections' })).json.data as Array<{ name: string }>).map(
    (c) => c.name,
  );

/**
 * Reads the collections, one request per turn of the event loop (as requests arriving on
 * sockets would), while `pending()`; returns what each read saw.
 */
async function readWhile(mock: AnswersMock, pending: () => boolean): Promise<string[][]> {
  const seen: string[][] = [];
  while (pending()) {
    seen.push(await names(mock));
    await new Promise((resolve) => setImmediate(resolve));
  }
  return seen;
}

describe('a large reset or load', () => {
  it.each([
    ['a reset', (mock: AnswersMock) => mock.controls.reset()],
    ['a load', (mock: AnswersMock) => mock.controls.load(largeState(10_000))],
  ])(
    '%s: requests sent meanwhile are answered from the state as it was, between its slices; then it is whole',
    async (_, replace) => {
      const mock = await createMock({ initialState: () => largeState(10_000) });
      await send(mock, { method: 'POST', path: '/collections', body: { name: 'extra' } });
      let done = false;
      const replaced = replace(mock).then(() => {
        done = true;
      });
      const seen = await readWhile(mock, () => !done);
      await replaced;
      // Answered between the slices, every one from the whole old state.
      expect(seen.length).toBeGreaterThan(1);
      for (const answer of seen) expect(answer).toEqual(['large', 'extra']);
      expect(await names(mock)).toEqual(['large']);
      expect(mock.db.objects.count()).toBe(10_000);
    },
  );

  it('leaves the state as it was when a later slice finds the snapshot invalid', async () => {
    const mock = await createMock({ initialState: emptyState });
    const state = largeState(10_000);
    state.objects[9_000]!.collection_id = 'col_nosuchcollection0000';
    await expect(mock.controls.load(state)).rejects.toThrow(/col_nosuchcollection0000/);
    expect(mock.db.objects.count()).toBe(0);
  });
});
