import { describe, expect, it } from 'vitest';
import { withinLimits } from '../../src/contract/explore/limits.ts';
import { inOrder } from '../../src/contract/explore/read-steps.ts';

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
