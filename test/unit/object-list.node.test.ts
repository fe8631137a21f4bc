import { describe, expect, it } from 'vitest';
import { compareByCreation } from '../../src/core/primitives/creation-order.ts';
import { ObjectList } from '../../src/core/store/object-list.ts';
import type { ObjectRecord } from '../../src/core/store/records.ts';
import { Vocabulary } from '../../src/core/search/vocabulary.ts';

/** A fixed pseudo-random sequence (mulberry32). */
function random(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const record = (n: number, ms: number): ObjectRecord => {
  const at = new Date(Date.UTC(2026, 0, 1) + ms).toISOString();
  return {
    id: `obj_${String(n).padStart(20, '0')}`,
    account_id: 'acme',
    collection_id: 'col_1',
    content: { text: `word${n % 5}` },
    created_at: at,
    updated_at: at,
    version: 1,
  };
};

/** The ids of the listed records that the search index finds for `word`, sorted. */
async function foundFor(vocabulary: Vocabulary, word: string): Promise<string[]> {
  const id = vocabulary.idOf(word);
  if (id === undefined) return [];
  const { page } = await vocabulary.index.search([id], ['col_1'], 0, 1_000);
  return page.map((hit) => hit.record.id).sort();
}

describe('ObjectList', () => {
  // Many records share a millisecond (a fixed clock, a snapshot), some are inserted out of order,
  // and the list is read after a random number of writes, so removed entries wait to be
  // compacted in between (a new record may share the millisecond of one of them).
  it.each([1, 2, 3, 4, 5])(
    'finds every record to replace and remove, whatever its place and its ties (seed %i)',
    async (seed) => {
      const next = random(seed);
      const vocabulary = new Vocabulary();
      const list = new ObjectList<ObjectRecord>(vocabulary);
      const expected: ObjectRecord[] = [];
      let created = 0;
      const insert = () => {
        const item = record(created++, Math.floor(next() * 12));
        list.insert(item);
        expected.push(item);
        expected.sort(compareByCreation);
      };
      for (let n = 0; n < 120; n++) insert();
      expect(list.records).toEqual(expected);
      while (expected.length > 0) {
        const writes = 1 + Math.floor(next() * 6);
        for (let w = 0; w < writes && expected.length > 0; w++) {
          const at = Math.floor(next() * expected.length);
          const chosen = expected[at]!;
          const roll = next();
          if (roll < 0.1) insert();
          else if (roll < 0.4) {
            const changed = {
              ...chosen,
              content: { text: 'changed' },
              version: chosen.version + 1,
            };
            list.replace(chosen, changed);
            expected[at] = changed;
          } else {
            list.remove(chosen);
            expected.splice(at, 1);
          }
        }
        expect(list.records).toEqual(expected);
        list.records.forEach((each, i) => expect(each).toBe(expected[i]));
        expect(vocabulary.index.size).toBe(expected.length);
        for (const word of ['word0', 'changed']) {
          const holding = expected.filter((each) => each.content.text === word);
          expect(await foundFor(vocabulary, word)).toEqual(holding.map((each) => each.id).sort());
        }
      }
    },
  );

  it('leaves the list as it is when asked to remove or replace a record it does not hold', () => {
    const list = new ObjectList<ObjectRecord>(new Vocabulary());
    const held = record(1, 5);
    list.insert(held);
    const stranger = record(2, 5);
    list.remove(stranger);
    list.replace(stranger, { ...stranger, version: 2 });
    list.remove({ ...held });
    expect(list.records).toEqual([held]);
    expect(list.records[0]).toBe(held);
  });

  it('does not find a removed record again before the list is compacted', () => {
    const vocabulary = new Vocabulary();
    const list = new ObjectList<ObjectRecord>(vocabulary);
    const kept = [record(1, 1), record(2, 2), record(3, 3)];
    const removed = record(4, 2);
    for (const each of [...kept, removed]) list.insert(each);
    list.remove(removed);
    list.remove(removed);
    list.replace(removed, { ...removed, content: { text: 'changed' }, version: 2 });
    expect(vocabulary.index.size).toBe(3);
    expect(vocabulary.idOf('changed')).toBeUndefined();
    expect(list.records).toEqual(kept);
  });
});
