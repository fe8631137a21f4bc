import { describe, expect, it } from 'vitest';
import { fit, withinLimits } from '../../src/contract/explore/limits.ts';
import { allowed, created, mergePatch, updated } from '../../src/contract/expectations/updates.ts';
import { inOrder } from '../../src/contract/judges/walks.ts';
import { nameAsGiven, refusedStoredNothing } from '../../src/contract/judges/values.ts';

describe('inOrder: the run collections as the target lists them, ties on the creation date free', () => {
  const created = (dates: Record<number, number | undefined>) =>
    new Map(Object.entries(dates).map(([n, date]) => [Number(n), date]));
  it.each([
    ['creation order', [1, 2, 3], [1, 2, 3], { 1: 10, 2: 20, 3: 30 }, true],
    ['two that tie, swapped', [2, 1, 3], [1, 2, 3], { 1: 10, 2: 10, 3: 30 }, true],
    ['all three tie, any order', [3, 1, 2], [1, 2, 3], { 1: 10, 2: 10, 3: 10 }, true],
    ['no tie, swapped', [2, 1, 3], [1, 2, 3], { 1: 10, 2: 20, 3: 30 }, false],
    ['a tie excuses no other', [3, 1, 2], [1, 2, 3], { 1: 10, 2: 10, 3: 30 }, false],
    ['dates unknown: the order only', [2, 1], [1, 2], { 1: undefined, 2: undefined }, false],
    ['one missing', [1, 3], [1, 2, 3], { 1: 10, 3: 30 }, false],
  ])('%s', (_, seen, order, dates, expected) => {
    expect(inOrder(seen, order, created(dates))).toBe(expected);
  });
});

describe('withinLimits: every string cut to the declared limit, code points whole', () => {
  it.each([
    ['no limit', { a: 'x'.repeat(10) }, undefined, { a: 'x'.repeat(10) }],
    ['a long string', { a: 'abcdef' }, 4, { a: 'abcd' }],
    ['nested in arrays and objects', { a: [{ b: 'abcdef' }], c: 1 }, 2, { a: [{ b: 'ab' }], c: 1 }],
    ['an astral character is never split', { a: 'ab😀' }, 3, { a: 'ab' }],
    ['short strings untouched', { a: 'ab', n: null }, 4, { a: 'ab', n: null }],
  ])('%s', (_, value, max, expected) => {
    expect(withinLimits(value, max)).toEqual(expected);
  });
});

describe('mergePatch: RFC 7396, as a target that merge-patches an update leaves the value', () => {
  // The examples of RFC 7396, appendix A, and the cases a store gets wrong.
  it.each([
    ['a member replaced', { a: 'b' }, { a: 'c' }, { a: 'c' }],
    ['a member added', { a: 'b' }, { b: 'c' }, { a: 'b', b: 'c' }],
    ['null removes a member', { a: 'b' }, { a: null }, {}],
    ['null removes one, keeps the rest', { a: 'b', b: 'c' }, { a: null }, { b: 'c' }],
    ['an array replaced whole', { a: ['b'] }, { a: 'c' }, { a: 'c' }],
    ['a value replaced by an array', { a: 'c' }, { a: ['b'] }, { a: ['b'] }],
    ['nested objects merge', { a: { b: 'c' } }, { a: { b: 'd', c: null } }, { a: { b: 'd' } }],
    ['arrays of objects are not merged', { a: [{ b: 'c' }] }, { a: [1] }, { a: [1] }],
    ['a non-object patch replaces', { a: 'foo' }, 'bar', 'bar'],
    [
      'a nested null inside a new member is dropped',
      {},
      { a: { bb: { ccc: null } } },
      { a: { bb: {} } },
    ],
  ])('%s', (_, target, patch, expected) => {
    expect(mergePatch(target, patch)).toEqual(expected);
  });
});

describe('updated: every style of update, from one history', () => {
  it.each([
    [
      'replace drops what was not sent',
      'replace',
      { a: 1, n: { x: 1 } },
      { n: { y: 2 } },
      { n: { y: 2 } },
    ],
    [
      'merge keeps the keys not sent, replaces a nested one whole',
      'merge',
      { a: 1, n: { x: 1 } },
      { n: { y: 2 } },
      { a: 1, n: { y: 2 } },
    ],
    [
      'merge-patch merges the nested one too',
      'merge-patch',
      { a: 1, n: { x: 1 } },
      { n: { y: 2 } },
      { a: 1, n: { x: 1, y: 2 } },
    ],
  ] as const)('%s', (_, style, before, sent, expected) => {
    expect(updated(created(before), sent)[style]).toEqual(expected);
  });

  it('a read matches the declared style only, or any style when none is declared', () => {
    const values = updated(created({ a: 1 }), { b: 2 });
    expect(allowed(values, undefined)).toContainEqual({ a: 1, b: 2 });
    expect(allowed(values, 'replace')).toEqual([{ b: 2 }]);
    expect(allowed(values, 'merge')).toEqual([{ a: 1, b: 2 }]);
  });
});

describe('fit: what explore sends stays within every declared limit', () => {
  const long = 'ü'.repeat(50_000);
  it.each([
    ['nothing declared: a 100 KB body goes whole', { content: { t: long } }, {}, 100_000],
    [
      'limits.body halves the longest string until it fits',
      { content: { t: long } },
      { body: 20_000 },
      20_000,
    ],
    [
      'limits.metadataKeys keeps the first keys',
      { metadata: { a: 1, b: 2, c: 3 } },
      { metadataKeys: 2 },
      1_000,
    ],
  ])('%s', (_, values, limits, most) => {
    const out = fit(values, limits)!;
    expect(Buffer.byteLength(JSON.stringify(out))).toBeLessThanOrEqual(most + 1_000);
    if ('metadata' in values) expect(Object.keys(out.metadata!)).toEqual(['a', 'b']);
    if (Object.keys(limits).length === 0) expect(out).toEqual(values);
    else expect(out).not.toEqual(values);
  });

  it('never cuts the name or the query: they are the run’s own', () => {
    const name = `answers-contract-${'x'.repeat(40)}`;
    expect(fit({ name, metadata: { a: 'y'.repeat(100) } }, { string: 10 })).toEqual({
      name,
      metadata: { a: 'y'.repeat(10) },
    });
  });
});

describe('nameAsGiven (SVC-1): a name shown is the one last given; none shown is not judged', () => {
  it.each([
    ['the name given', 'n-2', 'n-2', 'agreed'],
    ['the name before a rename', 'n-2', 'n-1', 'diverged'],
    ['no name shown', 'n-2', undefined, 'notJudged'],
    ['no name given (a recording)', undefined, 'n-1', 'notJudged'],
    ['a number for a name', '7', 7, 'diverged'],
  ] as const)('%s', (_, given, shown, outcome) => {
    const verdict = nameAsGiven('the name', given, shown);
    expect(verdict.outcome).toBe(outcome);
    expect(verdict.clause).toBe('SVC-1');
  });
});

describe('refusedStoredNothing: a refused write read back, by the clause of what it shows', () => {
  it.each([
    ['metadata', undefined, 'agreed', 'COLL-3'],
    ['metadata', 'its get shows the metadata sent', 'diverged', 'COLL-3'],
    ['content', 'its get shows the content sent', 'diverged', 'OBJ-GET-1'],
    ['count', 'the collection counts 3 objects', 'diverged', 'COLL-2'],
    ['list', undefined, 'agreed', 'COLL-LIST-1'],
  ] as const)('%s, %s', (readBack, shown, outcome, clause) => {
    const verdict = refusedStoredNothing(readBack, 'a write', shown);
    expect(verdict).toMatchObject({ outcome, clause });
    if (shown) expect((verdict as { message: string }).message).toContain(shown);
  });
});
