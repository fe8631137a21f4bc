/**
 * A judgment counts as judged only where its evidence could have shown the rule broken: an order
 * with two distinct creation dates, a search with something holding its word to leave out, a
 * walk that reached the end of the list. Otherwise it is not judged, with why; and the coverage
 * says per clause how often it was reached and how often it could have failed.
 */
import { expect, it } from 'vitest';
import { clauseCoverage, formatClauseCoverage } from '../../src/contract/explore/coverage.ts';
import { CreationClock, spacingOf } from '../../src/contract/explore/creation-clock.ts';
import { nothingHidden, sameItems } from '../../src/contract/judges/reads.ts';
import { creationOrder, eachOnce, livedThroughOnce } from '../../src/contract/judges/walks.ts';
import type { Verdict } from '../../src/contract/judges/verdict.ts';

const WHOLE = { whole: true } as const;
const CUT = { whole: false, why: 'cut' } as const;
const mine = { key: 'full', deleted: false } as const;
const scope = { key: 'full', deleted: false } as const;
const elsewhere = { key: 'full', deleted: false } as const;
const outcome = (verdict: Verdict) => `${verdict.outcome} ${verdict.clause}`;

it.each([
  {
    name: 'an order of collections that share one creation date',
    verdict: creationOrder(
      WHOLE,
      [1, 2, 3],
      [2, 1, 3],
      new Map([
        [1, 5],
        [2, 5],
        [3, 5],
      ]),
    ),
    want: 'notJudged COLL-LIST-3',
  },
  {
    name: 'an order with two distinct creation dates',
    verdict: creationOrder(
      WHOLE,
      [1, 2, 3],
      [2, 3, 1],
      new Map([
        [1, 5],
        [2, 6],
        [3, 7],
      ]),
    ),
    want: 'diverged COLL-LIST-3',
  },
  {
    name: 'an order over a walk that did not reach the end',
    verdict: creationOrder(
      CUT,
      [1, 2, 3],
      [2, 3, 1],
      new Map([
        [1, 5],
        [2, 6],
        [3, 7],
      ]),
    ),
    want: 'notJudged COLL-LIST-3',
  },
  {
    name: "a walk of none of the run's collections",
    verdict: eachOnce(WHOLE, [], []),
    want: 'notJudged COLL-LIST-2',
  },
  {
    name: 'a walk that did not reach the end',
    verdict: eachOnce(CUT, [1], [1]),
    want: 'notJudged COLL-LIST-2',
  },
  {
    name: 'writes between pages with nothing living through them',
    verdict: livedThroughOnce(WHOLE, false, [], []),
    want: 'notJudged COLL-LIST-2',
  },
  {
    name: "a collection's objects over a walk that did not reach the end",
    verdict: sameItems(CUT, 'the objects', ['#1'], []),
    want: 'notJudged OBJ-1',
  },
  {
    name: 'a scoped search with nothing outside the scope holding its word',
    verdict: nothingHidden(
      'the search',
      [
        { name: '#1', state: { ...mine, collection: scope, word: 0 } as never, shown: true },
        { name: '#2', state: { ...mine, collection: elsewhere, word: 1 } as never, shown: false },
      ],
      (state) => (state as unknown as { collection: unknown }).collection === scope,
      'full',
      'SEARCH-1',
      'outside the scope',
      (state) => (state as unknown as { word: number }).word === 0,
    ),
    want: 'notJudged SEARCH-1',
  },
  {
    name: 'a scoped search with an object outside the scope holding its word',
    verdict: nothingHidden(
      'the search',
      [
        { name: '#1', state: { ...mine, collection: scope, word: 0 } as never, shown: true },
        { name: '#2', state: { ...mine, collection: elsewhere, word: 0 } as never, shown: false },
      ],
      (state) => (state as unknown as { collection: unknown }).collection === scope,
      'full',
      'SEARCH-1',
      'outside the scope',
      (state) => (state as unknown as { word: number }).word === 0,
    ),
    want: 'agreed SEARCH-1',
  },
])('$name: $want', ({ verdict, want }) => {
  expect(outcome(verdict)).toBe(want);
});

// @note Whether a walk reached the end is target-api/walk.ts's reachedEnd: test/unit/walk-reached-end.

it.each([
  {
    name: 'whole seconds',
    dates: [1_700_000_001_000, 1_700_000_005_000],
    resolution: 1_000,
    spacing: 1_000,
  },
  {
    name: 'whole seconds, the first on a whole minute',
    dates: [1_699_999_980_000],
    resolution: 60_000,
    spacing: 1_000,
  },
  {
    name: 'milliseconds',
    dates: [1_700_000_001_000, 1_700_000_001_237],
    resolution: 1,
    spacing: 0,
  },
  { name: 'no date seen', dates: [], resolution: 1, spacing: 0 },
])(
  'creation dates of $name: resolution $resolution, spacing $spacing',
  ({ dates, resolution, spacing }) => {
    const clock = new CreationClock();
    for (const date of dates) clock.saw(date);
    expect(clock.resolution()).toBe(resolution);
    expect(clock.spacing()).toBe(spacing);
  },
);

it('a clock too coarse to wait out (whole days) stops the spacing at the first spaced creation that got the date before it', async () => {
  const clock = new CreationClock();
  const spacing = spacingOf(clock, [
    { kind: 'createCollection' },
    { kind: 'createCollection' },
    { kind: 'walk', key: 'full' },
  ]);
  spacing.after(1_699_920_000_000, false);
  expect(clock.spacing()).toBe(1_000);
  spacing.after(1_699_920_000_000, true);
  expect(clock.spacing()).toBe(0);
});

it('the coverage says per clause how often it was reached and could fail, and never covers a clause that could not', () => {
  const coverage = clauseCoverage(
    {
      clauses: { 'COLL-1': 4 },
      reached: { 'COLL-1': 4, 'COLL-LIST-3': 421 },
      notJudged: { 'COLL-LIST-3': { "the run's collections listed share one creation date": 421 } },
    },
    (operation) => operation === 'createCollection' || operation === 'listCollections',
  );
  expect(coverage.reached).toContain('COLL-1');
  expect(coverage.reached).not.toContain('COLL-LIST-3');
  expect(coverage.percent).toBeLessThan(100);
  expect(coverage.clauses?.['COLL-LIST-3']).toEqual({
    reached: 421,
    couldFail: 0,
    notJudged: { "the run's collections listed share one creation date": 421 },
  });
  const text = formatClauseCoverage(coverage);
  expect(text).toContain('never where it could have failed: COLL-LIST-3');
  expect(text).toContain('\n  COLL-1 reached 4, could fail 4\n');
  expect(text).toContain(
    "\n  COLL-LIST-3 reached 421, could fail 0 (not judged: the run's collections listed share one creation date: 421)",
  );
});
