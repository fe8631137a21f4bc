/**
 * Ranking search hits (src/core/search/ranked-hits.ts) against sorting every hit: the same page
 * and total for shallow and deep pages, in document order and in another tie order, with hits
 * read in uneven chunks, tallies past the array-counted ones, and tallies that share a score.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { rankHits } from '../../src/core/search/ranked-hits.ts';
import { FOUND, scoreOf, type HitReader, type TieOrder } from '../../src/core/search/tally.ts';

/** Hits from arrays, read at most `step` documents at a time (so some reads find none). */
class ArrayReader implements HitReader {
  #at = 0;
  #count = 0;
  constructor(
    readonly hits: Array<[document: number, tally: number]>,
    readonly step: number,
  ) {}
  get finished() {
    return this.#at >= this.hits.length;
  }
  get count() {
    return this.#count;
  }
  rewind() {
    this.#at = 0;
    this.#count = 0;
  }
  read(documents: Int32Array, tallies: Float64Array, floor: number) {
    let found = 0;
    const stop = Math.min(this.hits.length, this.#at + this.step);
    for (; this.#at < stop && found < documents.length; this.#at++) {
      const [document, tally] = this.hits[this.#at]!;
      if (tally === 0) continue;
      this.#count += 1;
      if (tally <= floor) continue;
      documents[found] = document;
      tallies[found] = tally;
      found += 1;
    }
    return found;
  }
}

/** Every hit scored and sorted: the definition. */
function naive(hits: Array<[number, number]>, offset: number, limit: number, tie: TieOrder) {
  const ranked = hits
    .filter(([, tally]) => tally > 0)
    .map(([document, tally]) => ({ document, score: scoreOf(tally) }))
    .sort((a, b) => b.score - a.score || tie(a.document, b.document))
    .slice(offset, offset + limit);
  return {
    documents: ranked.map((hit) => hit.document),
    scores: ranked.map((hit) => hit.score),
    total: hits.filter(([, tally]) => tally > 0).length,
  };
}

const tally = (words: number, occurrences: number) => words * FOUND + occurrences;
/** Reversed document order: a tie order that is not document order. */
const reversed: TieOrder = (a, b) => b - a;

async function rank(
  hits: Array<[number, number]>,
  offset: number,
  limit: number,
  tie: TieOrder | undefined,
  step = 1_000,
) {
  return rankHits(new ArrayReader(hits, step), offset, limit, tie);
}

describe('rankHits', () => {
  // Two occurrence counts this large share a score: 1 - 1/(c + 1) rounds to the same double.
  const huge = 2 ** 31;
  it.each([
    { name: 'a shallow page', hits: 50, offset: 0, limit: 10 },
    { name: 'the page at the shallow bound', hits: 2_000, offset: 990, limit: 10 },
    { name: 'a deep page', hits: 9_000, offset: 4_000, limit: 25 },
    { name: 'a deep page past the last hit', hits: 1_500, offset: 1_495, limit: 100 },
    { name: 'a page of more than one chunk', hits: 12_000, offset: 0, limit: 100 },
  ])('ranks $name like sorting every hit, in both tie orders', async ({ hits, offset, limit }) => {
    const all: Array<[number, number]> = Array.from({ length: hits }, (_, d) => [
      d,
      d % 7 === 3 ? 0 : tally(1 + (d % 3), 1 + ((d * 31) % 5)),
    ]);
    for (const tie of [undefined, reversed]) {
      expect(await rank(all, offset, limit, tie)).toEqual(
        naive(all, offset, limit, tie ?? ((a, b) => a - b)),
      );
    }
  });

  it('ranks tallies that share a score as one score, in tie order', async () => {
    const all: Array<[number, number]> = Array.from({ length: 3_000 }, (_, d) => [
      d,
      tally(1, d % 2 === 0 ? huge : huge + 1),
    ]);
    expect(scoreOf(all[0]![1])).toBe(scoreOf(all[1]![1]));
    for (const tie of [undefined, reversed]) {
      for (const [offset, limit] of [
        [0, 10],
        [1_500, 20],
      ] as const) {
        expect(await rank(all, offset, limit, tie)).toEqual(
          naive(all, offset, limit, tie ?? ((a, b) => a - b)),
        );
      }
    }
  });

  it('gives the page and total of sorting every hit, for any hits, page and chunking', async () => {
    const hit = fc.tuple(
      fc.integer({ min: 0, max: 70 }),
      fc.oneof(fc.integer({ min: 0, max: 70 }), fc.constantFrom(huge, huge + 1, 2 ** 20)),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.array(hit, { maxLength: 2_500 }),
        fc.nat(2_600),
        fc.integer({ min: 1, max: 120 }),
        fc.integer({ min: 1, max: 5_000 }),
        fc.boolean(),
        async (drawn, offset, limit, step, inOrder) => {
          const all = drawn.map(
            ([words, occurrences], d) =>
              [d, words === 0 ? 0 : tally(words, occurrences)] as [number, number],
          );
          const tie = inOrder ? undefined : reversed;
          expect(await rank(all, offset, limit, tie, step)).toEqual(
            naive(all, offset, limit, tie ?? ((a, b) => a - b)),
          );
        },
      ),
      { seed: 20_260_514, numRuns: 200 },
    );
  });
});
