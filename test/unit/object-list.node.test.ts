import { describe, expect, it } from 'vitest';
import { compareByCreation } from '../../src/core/model/creation-order.ts';
import { ObjectList } from '../../src/core/model/object-list.ts';
import type { ObjectRecord } from '../../src/core/model/records.ts';
import { Vocabulary } from '../../src/core/model/vocabulary.ts';

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

describe('ObjectList', () => {
  // Many records share a millisecond (a fixed clock, a snapshot), some are inserted out of order.
  it.each([1, 2, 3, 4, 5])(
    'finds every record to replace and remove, whatever its place and its ties (seed %i)',
    (seed) => {
      const next = random(seed);
      const list = new ObjectList<ObjectRecord>(new Vocabulary());
      const expected: ObjectRecord[] = [];
      for (let n = 0; n < 120; n++) {
        const item = record(n, Math.floor(next() * 12));
        list.insert(item);
        expected.push(item);
      }
      expected.sort(compareByCreation);
      expect(list.records).toEqual(expected);
      while (expected.length > 0) {
        const at = Math.floor(next() * expected.length);
        const chosen = expected[at]!;
        if (next() < 0.4) {
          const changed = { ...chosen, content: { text: 'changed' }, version: chosen.version + 1 };
          list.replace(chosen, changed);
          expected[at] = changed;
          expect(list.records[at]).toBe(changed);
        } else {
          list.remove(chosen);
          expected.splice(at, 1);
        }
        expect(list.records).toEqual(expected);
        expect(list.documents).toHaveLength(expected.length);
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
});
