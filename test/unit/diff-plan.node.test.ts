import { describe, expect, it } from 'vitest';
import { planOf, type IdMap, type StateFile } from '../../src/contract/diff/plan.ts';

const KEYS = { full: 'k-full', otherAccount: 'k-other' };

/** A state of `texts` (one object each) in one collection of the full key's account, and one of the other's. */
function stateOf(texts: string[], theirs: string[] = []): { state: StateFile; map: IdMap } {
  const state: StateFile = {
    api_keys: [
      { key: KEYS.full, account_id: 'a' },
      { key: KEYS.otherAccount, account_id: 'b' },
    ],
    collections: [
      { id: 'col_a', account_id: 'a', name: 'A' },
      { id: 'col_b', account_id: 'b', name: 'B' },
    ],
    objects: [
      ...texts.map((text, i) => ({ id: `obj_a${i}`, collection_id: 'col_a', content: { text } })),
      ...theirs.map((text, i) => ({ id: `obj_b${i}`, collection_id: 'col_b', content: { text } })),
    ],
  };
  const map: IdMap = {
    format: 'answers-snapshot-map/1',
    baseUrl: 'http://x',
    takenAt: '2026-11-28T00:00:00.000Z',
    collections: { col_a: 'A1', col_b: 'B1' },
    objects: Object.fromEntries(state.objects.map((o) => [o.id, `d-${o.id}`])),
  };
  return { state, map };
}

const bounds = { searches: 10, mostHolders: 2, seed: 1, maxCollections: 10 };

describe("diff's plan", () => {
  it.each([
    {
      name: 'a word in every object is not searched',
      texts: ['common x1', 'common x2', 'common x3'],
      words: ['x1', 'x2', 'x3'],
    },
    {
      name: 'a word in as many objects as the bound is',
      texts: ['pair one', 'pair two', 'three'],
      words: ['one', 'pair', 'three', 'two'],
    },
    { name: 'digits alone are no word to search', texts: ['42 alpha'], words: ['alpha'] },
  ])('$name', ({ texts, words }) => {
    const { state, map } = stateOf(texts);
    const plan = planOf(state, map, KEYS, bounds);
    expect(plan.words.map((w) => w.word).sort()).toEqual(words);
    expect(plan.searchesAsked).toBe(10);
  });

  it("counts the full key's objects only, maps ids both ways, and names the other account's", () => {
    const { state, map } = stateOf(['shared mine'], ['shared theirs', 'shared again']);
    const plan = planOf(state, map, KEYS, bounds);
    expect(plan.words.find((w) => w.word === 'shared')).toMatchObject({
      holders: 1,
      scope: { mock: 'col_a', deployment: 'A1' },
    });
    expect(plan.collections).toEqual([
      { mock: 'col_a', deployment: 'A1', objects: [{ mock: 'obj_a0', deployment: 'd-obj_a0' }] },
    ]);
    expect(plan.others).toEqual([{ mock: 'col_b', deployment: 'B1' }]);
    expect(plan.otherObjects.sort()).toEqual(['d-obj_b0', 'd-obj_b1']);
  });

  it('samples the same words for one seed, and at most as many as asked', () => {
    const texts = Array.from(
      { length: 40 },
      (_, i) => `w${String.fromCharCode(97 + (i % 26))}${i}`,
    );
    const { state, map } = stateOf(texts);
    const one = planOf(state, map, KEYS, { ...bounds, searches: 5 }).words.map((w) => w.word);
    expect(one).toHaveLength(5);
    expect(planOf(state, map, KEYS, { ...bounds, searches: 5 }).words.map((w) => w.word)).toEqual(
      one,
    );
    expect(
      planOf(state, map, KEYS, { ...bounds, searches: 5, seed: 2 }).words.map((w) => w.word),
    ).not.toEqual(one);
  });
});
