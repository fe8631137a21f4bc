import { describe, expect, it } from 'vitest';
import {
  declaredDecisions,
  foundAlike,
  listedAlike,
  notYoursAlike,
  pageHeldAlike,
  rankedAlike,
} from '../../src/contract/judges/drift.ts';
import {
  otherAccountRefused,
  searchAnswered,
  shownYetAbsent,
} from '../../src/contract/judges/reads.ts';
import { DEFAULT_DESCRIPTION } from '../../src/contract/target-api/description.ts';
import { parseTargetDescription } from '../../src/contract/target-api/load.ts';

describe("diff's judges of what the deployment and the mock decide otherwise", () => {
  it.each([
    { deployment: ['a', 'b', 'c'], mock: ['a', 'b', 'c'], outcome: 'agreed' },
    {
      deployment: ['c', 'b', 'a'],
      mock: ['a', 'b', 'c'],
      outcome: 'diverged',
      says: /reverse order/,
    },
    { deployment: ['a', 'c', 'b'], mock: ['a', 'b', 'c'], outcome: 'diverged', says: /at item 2/ },
    // Not the same items, or one: nothing to order.
    { deployment: ['a', 'b'], mock: ['a', 'c'], outcome: 'notJudged' },
    { deployment: ['a'], mock: ['a'], outcome: 'notJudged' },
  ])('listedAlike $deployment against $mock: $outcome', ({ deployment, mock, outcome, says }) => {
    const verdict = listedAlike('the list', deployment, mock);
    expect(verdict).toMatchObject({ outcome, clause: 'GAP-SORT-DIRECTION' });
    if (says) expect(verdict.outcome === 'diverged' && verdict.message).toMatch(says);
    expect(rankedAlike('the hits', deployment, mock)).toMatchObject({
      outcome,
      clause: 'GAP-SEARCH-RESP',
    });
  });

  it.each([
    { deployment: { items: 100, more: true }, mock: { items: 100, more: true }, outcome: 'agreed' },
    { deployment: { items: 30, more: false }, mock: { items: 30, more: false }, outcome: 'agreed' },
    {
      deployment: { items: 50, more: true },
      mock: { items: 100, more: true },
      outcome: 'diverged',
    },
    { deployment: { items: 50, more: true }, mock: { items: 50, more: true }, outcome: 'agreed' },
  ])('pageHeldAlike of 100 asked: $deployment against $mock', ({ deployment, mock, outcome }) => {
    expect(pageHeldAlike('the list', 100, deployment, mock)).toMatchObject({
      outcome,
      clause: 'GAP-LIMIT-PAGE',
    });
  });

  it.each([
    { deployment: ['1', '2'], mock: ['2', '1'], whole: true, outcome: 'agreed' },
    { deployment: ['1'], mock: ['1', '2'], whole: true, outcome: 'diverged' },
    { deployment: ['1', '3'], mock: ['1', '2'], whole: true, outcome: 'diverged' },
    { deployment: ['1'], mock: ['1', '2'], whole: false, outcome: 'notJudged' },
  ])(
    'foundAlike $deployment against $mock (whole: $whole)',
    ({ deployment, mock, whole, outcome }) => {
      expect(foundAlike('the search', deployment, mock, whole)).toMatchObject({
        outcome,
        clause: 'GAP-SEARCH-MATCH',
      });
    },
  );

  it('notYoursAlike: the same refusal agrees, another diverges', () => {
    expect(notYoursAlike('GET x', 404, 404).outcome).toBe('agreed');
    expect(notYoursAlike('GET x', 403, 404)).toMatchObject({
      outcome: 'diverged',
      clause: 'GAP-ISOLATION',
    });
  });

  it('declaredDecisions: our own description declares nothing unlike ours; another, what it changes', () => {
    const mine = declaredDecisions(DEFAULT_DESCRIPTION, DEFAULT_DESCRIPTION);
    expect(mine.filter((each) => each.verdict.outcome !== 'agreed')).toEqual([]);
    const theirs = parseTargetDescription(
      `operations:
  listCollections: GET /collections
  getCollection: GET /collections/{collection_id}
statuses:
  gone: [410]
  notYours: [404, 403]
limits:
  pageSize: 50
`,
      'a test',
    );
    const diverged = declaredDecisions(theirs, DEFAULT_DESCRIPTION)
      .filter((each) => each.verdict.outcome === 'diverged')
      .map((each) => each.verdict.clause);
    expect(diverged).toEqual(['GAP-LIMIT-PAGE', 'GAP-STATES']);
  });
});

describe("diff's judges of the deployment's own answers", () => {
  it.each([
    {
      kind: 'object' as const,
      absent: [{ id: '7', status: 410 }],
      others: [],
      clause: 'DEL-3',
      outcome: 'diverged',
    },
    {
      kind: 'collection' as const,
      absent: [{ id: 'c', status: 404 }],
      others: [],
      clause: 'DEL-1',
      outcome: 'diverged',
    },
    { kind: 'object' as const, absent: [], others: ['9'], clause: 'ISO-1', outcome: 'diverged' },
    { kind: 'object' as const, absent: [], others: [], clause: 'DEL-3', outcome: 'agreed' },
  ])('shownYetAbsent: $clause $outcome', ({ kind, absent, others, clause, outcome }) => {
    expect(shownYetAbsent('a read', kind, 3, absent, others)).toMatchObject({ outcome, clause });
  });

  it('shownYetAbsent judges nothing where no get was asked', () => {
    expect(shownYetAbsent('a read', 'object', 0, [], []).outcome).toBe('notJudged');
  });

  it.each([
    { status: 200, outcome: 'diverged' },
    { status: 404, outcome: 'agreed' },
    { status: 403, outcome: 'agreed' },
  ])('otherAccountRefused: $status is $outcome', ({ status, outcome }) => {
    expect(otherAccountRefused('GET x', status)).toMatchObject({ outcome, clause: 'ISO-1' });
  });

  it('searchAnswered: a refused search breaks SEARCH-1', () => {
    expect(searchAnswered('POST /search', 200).outcome).toBe('agreed');
    expect(searchAnswered('POST /search', 500)).toMatchObject({
      outcome: 'diverged',
      clause: 'SEARCH-1',
    });
  });
});
