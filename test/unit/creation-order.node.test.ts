import { describe, expect, it } from 'vitest';
import { firstIndex } from '../../src/core/primitives/binary-search.ts';
import {
  compareByCreation,
  indexAfter,
  indexAtOrAfter,
  insertSorted,
  removeSorted,
  replaceSorted,
  type Keyed,
} from '../../src/core/primitives/creation-order.ts';
import { keysetPage } from '../../src/core/primitives/keyset-page.ts';

const at = (second: number, id: string): Keyed => ({
  created_at: `2026-01-01T00:00:0${second}.000Z`,
  id,
});
/** Five items in creation order; b and c share a creation date (ties go by id). */
const ITEMS: Keyed[] = [at(1, 'a'), at(2, 'b'), at(2, 'c'), at(3, 'd'), at(4, 'e')];
const ids = (items: readonly Keyed[]) => items.map((item) => item.id).join('');

describe('firstIndex', () => {
  it.each([
    { given: { length: 0, from: 0 }, want: 0 },
    { given: { length: 5, from: 0 }, want: 0 },
    { given: { length: 5, from: 3 }, want: 3 },
    { given: { length: 5, from: 5 }, want: 5 },
    { given: { length: 5, from: 9 }, want: 5 },
  ])('finds where a predicate starts to hold: $given', ({ given, want }) => {
    expect(firstIndex(given.length, (i) => i >= given.from)).toBe(want);
  });
});

describe('compareByCreation', () => {
  it.each([
    { given: [at(1, 'z'), at(2, 'a')], want: -1 },
    { given: [at(2, 'a'), at(1, 'z')], want: 1 },
    { given: [at(2, 'b'), at(2, 'c')], want: -1 },
    { given: [at(2, 'c'), at(2, 'b')], want: 1 },
    { given: [at(2, 'b'), at(2, 'b')], want: 0 },
  ])('orders by date, then id: $given.0.id vs $given.1.id', ({ given, want }) => {
    expect(compareByCreation(given[0]!, given[1]!)).toBe(want);
  });
});

describe('indexAfter and indexAtOrAfter', () => {
  it.each([
    { position: at(0, 'x'), after: 0, atOrAfter: 0 },
    { position: at(1, 'a'), after: 1, atOrAfter: 0 },
    { position: at(2, 'b'), after: 2, atOrAfter: 1 },
    { position: at(2, 'bb'), after: 2, atOrAfter: 2 },
    { position: at(2, 'c'), after: 3, atOrAfter: 2 },
    { position: at(4, 'e'), after: 5, atOrAfter: 4 },
    { position: at(9, 'z'), after: 5, atOrAfter: 5 },
  ])('places $position.id at $position.created_at', ({ position, after, atOrAfter }) => {
    expect(indexAfter(ITEMS, position)).toBe(after);
    expect(indexAtOrAfter(ITEMS, position)).toBe(atOrAfter);
  });
});

describe('sorted insert, replace and remove', () => {
  it.each([
    { item: at(0, 'x'), index: 0, want: 'xabcde' },
    { item: at(2, 'bb'), index: 2, want: 'abbbcde' },
    { item: at(9, 'z'), index: 5, want: 'abcdez' },
  ])('inserts $item.id at $index', ({ item, index, want }) => {
    const list = [...ITEMS];
    expect(insertSorted(list, item)).toBe(index);
    expect(ids(list)).toBe(want);
  });

  it('replaces an item in place and reports one that is absent', () => {
    const list = [...ITEMS];
    const next = { ...list[2]! };
    expect(replaceSorted(list, list[2]!, next)).toBe(2);
    expect(list[2]).toBe(next);
    expect(replaceSorted(list, at(2, 'c'), next)).toBe(-1);
  });

  it.each([
    { index: 0, want: 'bcde' },
    { index: 2, want: 'abde' },
    { index: 4, want: 'abcd' },
  ])('removes the item at $index', ({ index, want }) => {
    const list = [...ITEMS];
    expect(removeSorted(list, list[index]!)).toBe(index);
    expect(ids(list)).toBe(want);
  });

  it('removes nothing for an equal but different item', () => {
    const list = [...ITEMS];
    expect(removeSorted(list, at(1, 'a'))).toBe(-1);
    expect(ids(list)).toBe('abcde');
  });
});

describe('keysetPage', () => {
  it.each([
    { given: { limit: 2, order: 'asc' as const }, want: { page: 'ab', hasMore: true } },
    { given: { limit: 5, order: 'asc' as const }, want: { page: 'abcde', hasMore: false } },
    { given: { limit: 9, order: 'asc' as const }, want: { page: 'abcde', hasMore: false } },
    {
      given: { limit: 2, order: 'asc' as const, after: at(2, 'b') },
      want: { page: 'cd', hasMore: true },
    },
    {
      given: { limit: 2, order: 'asc' as const, after: at(3, 'd') },
      want: { page: 'e', hasMore: false },
    },
    { given: { limit: 2, order: 'desc' as const }, want: { page: 'ed', hasMore: true } },
    {
      given: { limit: 2, order: 'desc' as const, after: at(2, 'c') },
      want: { page: 'ba', hasMore: false },
    },
    {
      // A deleted item as the position: the walk goes on from where it was.
      given: { limit: 2, order: 'asc' as const, after: at(2, 'bb') },
      want: { page: 'cd', hasMore: true },
    },
    {
      given: { limit: 3, order: 'desc' as const, after: at(2, 'bb') },
      want: { page: 'ba', hasMore: false },
    },
  ])('pages $given.order by $given.limit after $given.after.id', ({ given, want }) => {
    const { page, hasMore } = keysetPage(ITEMS, given);
    expect({ page: ids(page), hasMore }).toEqual(want);
  });
});
