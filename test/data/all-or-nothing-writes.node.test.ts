/**
 * A write the search index cannot take is not half applied (issue 34, item 4). When the
 * vocabulary's map reached V8's cap, the failing create was already in the store's map of ids:
 * listed and exported, but not in the search index, its collection's list or the journal, and
 * cached reads went stale. The index is now written first, and gives back the words it numbered.
 */
import { describe, expect, it } from 'vitest';
import { assemble } from '../../src/assemble.ts';
import { emptyState, type Snapshot } from '../../src/index.ts';
import { send } from '../support/in-process.ts';

/**
 * The data of an export, without the id sequences: a failed create has drawn its id, which is
 * never handed out again (docs/spec-gaps.md GAP-STATES), as after a create and a delete.
 */
const records = ({ id_sequences: _, ...data }: Snapshot) => data;

/** A mock with one object, whose vocabulary fails on the next new word, as a map at its cap. */
async function mockAtItsCap() {
  const { mock, state } = await assemble({ initialState: emptyState() });
  const collection = await send(mock, {
    method: 'POST',
    path: '/collections',
    body: { name: 'c' },
  });
  const path = `/collections/${collection.json.id as string}/objects`;
  const kept = await send(mock, { method: 'POST', path, body: { content: { t: 'alpha beta' } } });
  const { store } = state;
  const { vocabulary } = store;
  const intern = vocabulary.intern.bind(vocabulary);
  // Known words go through; the second new word throws what V8 throws past a map's cap.
  let fresh = 0;
  vocabulary.intern = (word: string) => {
    if (vocabulary.idOf(word) === undefined && ++fresh > 1)
      throw new RangeError('Map maximum size exceeded');
    return intern(word);
  };
  return { mock, store, path, object: `${path}/${kept.json.id as string}` };
}

describe('a write the search index fails', () => {
  it.each([
    ['a create', 'POST', (path: string) => path],
    ['a replace', 'PUT', (_: string, object: string) => object],
    ['a patch', 'PATCH', (_: string, object: string) => object],
  ])('changes nothing when it is %s', async (_, method, target) => {
    const { mock, store, path, object } = await mockAtItsCap();
    const before = {
      version: store.version,
      words: store.vocabulary.size,
      state: records(mock.controls.export()),
      list: (await send(mock, { path })).body,
    };
    const failed = await send(mock, {
      method,
      path: target(path, object),
      body: { content: { t: 'gamma delta epsilon' } },
    });
    expect(failed.status).toBe(500);
    expect(store.version).toBe(before.version);
    expect(store.vocabulary.size).toBe(before.words);
    expect(store.vocabulary.idOf('gamma')).toBeUndefined();
    expect(records(mock.controls.export())).toEqual(before.state);
    expect((await send(mock, { path })).body).toBe(before.list);
    const search = await send(mock, { method: 'POST', path: '/search', body: { query: 'alpha' } });
    expect(
      search.json.data.map((hit: { object: { content: unknown } }) => hit.object.content),
    ).toEqual([{ t: 'alpha beta' }]);
  });
});
