/**
 * The posting lists against a plain model (word -> document -> count), as a property: appends,
 * sets, removals, dropped words and renumbering, over lists short enough to share the arena and
 * long enough to have an array of their own, with counts past the packed field.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { documentOf } from '../../src/core/search/posting-entry.ts';
import { Postings } from '../../src/core/search/postings.ts';

type Op =
  | { kind: 'append'; word: number; count: number; times: number }
  | { kind: 'set'; word: number; document: number; count: number }
  | { kind: 'remove'; word: number; document: number }
  | { kind: 'drop'; word: number }
  | { kind: 'delete'; document: number }
  | { kind: 'renumber'; keep: number };

const word = fc.nat(11);
const count = fc.oneof(fc.integer({ min: 1, max: 6 }), fc.integer({ min: 7, max: 300 }));
const op: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 12,
    arbitrary: fc.record({
      kind: fc.constant('append' as const),
      word,
      count,
      // Sometimes many at once, so lists outgrow the arena's blocks.
      times: fc.oneof(fc.constant(1), fc.integer({ min: 1, max: 120 })),
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('set' as const),
      word,
      document: fc.nat(3_000),
      count,
    }),
  },
  {
    weight: 5,
    arbitrary: fc.record({ kind: fc.constant('remove' as const), word, document: fc.nat(3_000) }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('drop' as const), word }) },
  {
    weight: 4,
    arbitrary: fc.record({ kind: fc.constant('delete' as const), document: fc.nat(3_000) }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('renumber' as const), keep: fc.nat(3) }) },
);

/** A list as a search reads it: removed postings and deleted documents skipped. */
function listed(postings: Postings, w: number, dead: ReadonlySet<number>): Array<[number, number]> {
  const { entries, start, end } = postings.list(w);
  const out: Array<[number, number]> = [];
  for (let i = start; i < end; i++) {
    const document = documentOf(entries[i]!);
    if (dead.has(document) || (entries[i]! & 7) === 0) continue;
    out.push([document, postings.countOf(w, entries[i]!)]);
  }
  return out;
}

describe('Postings', () => {
  it('holds what a plain map of words to documents holds, through any changes', () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 200 }), (ops) => {
        let dead = new Set<number>();
        const postings = new Postings((document) => !dead.has(document));
        let model = new Map<number, Map<number, number>>();
        let next = 0;
        for (const o of ops) {
          const list = model.get('word' in o ? o.word : 0) ?? new Map<number, number>();
          switch (o.kind) {
            case 'append':
              for (let i = 0; i < o.times; i++) {
                postings.append(o.word, next, o.count);
                model.set(o.word, list.set(next, o.count));
                next += 1;
              }
              break;
            case 'set': {
              if (dead.has(o.document)) break;
              const added = !list.has(o.document);
              expect(postings.set(o.word, o.document, o.count)).toBe(added ? 'added' : 'changed');
              model.set(o.word, list.set(o.document, o.count));
              next = Math.max(next, o.document + 1);
              break;
            }
            case 'remove':
              if (dead.has(o.document)) break;
              expect(postings.remove(o.word, o.document)).toBe(list.delete(o.document));
              break;
            case 'drop':
              postings.drop(o.word);
              model.delete(o.word);
              break;
            case 'delete':
              if (o.document >= next || dead.has(o.document)) break;
              dead.add(o.document);
              for (const [w, documents] of model) {
                if (documents.delete(o.document)) postings.removeDeleted(w);
              }
              postings.forgetDocument(o.document);
              break;
            case 'renumber': {
              // Every document whose number is not a multiple of keep + 2 is deleted.
              const renumbered = new Int32Array(next).fill(-1);
              let kept = 0;
              for (let d = 0; d < next; d++) {
                if (d % (o.keep + 2) === 0 && !dead.has(d)) renumbered[d] = kept++;
              }
              postings.renumber(renumbered);
              const renamed = new Map<number, Map<number, number>>();
              for (const [w, documents] of model) {
                const moved = new Map<number, number>();
                for (const [d, n] of documents)
                  if (renumbered[d]! >= 0) moved.set(renumbered[d]!, n);
                renamed.set(w, moved);
              }
              model = renamed;
              next = kept;
              dead = new Set();
              break;
            }
          }
        }
        for (let w = 0; w < 12; w++) {
          const want = [...(model.get(w) ?? new Map<number, number>())].sort((a, b) => a[0] - b[0]);
          expect(listed(postings, w, dead)).toEqual(want);
        }
      }),
      { seed: 20_260_514, numRuns: 300 },
    );
  });

  it('keeps a word held by one document in four bytes of shared arena', () => {
    const postings = new Postings(() => true);
    for (let w = 0; w < 1_000; w++) postings.append(w, w, 1);
    const { entries } = postings.list(999);
    expect(entries.length).toBeLessThan(4_000);
    expect(listed(postings, 999, new Set())).toEqual([[999, 1]]);
  });
});
