/**
 * Whether a walk reached the end of a list: a rule about the whole list is judged only then, in
 * every front-end. Each row is the page the walk stopped at, and what it must conclude.
 */
import { describe, expect, it } from 'vitest';
import { reachedEnd, type LastPage } from '../../src/contract/target-api/walk.ts';

/** A first page of 2 items, asked in pages of 2, with nothing at the next pointer. */
const FULL: LastPage = {
  page: 1,
  items: 2,
  asked: 2,
  next: undefined,
  pointer: '/next',
  nextSeen: false,
  canAsk: true,
};

describe('reachedEnd', () => {
  it.each([
    { row: 'a stated end (null)', page: { ...FULL, next: null }, whole: true },
    { row: 'a stated end (empty)', page: { ...FULL, next: '' }, whole: true },
    { row: 'a page shorter than asked', page: { ...FULL, items: 1 }, whole: true },
    { row: 'no page size asked, no limit', page: { ...FULL, asked: undefined }, whole: true },
    { row: 'more items than asked (size ignored)', page: { ...FULL, items: 5 }, whole: true },
    {
      row: 'a later page, the pointer seen before',
      page: { ...FULL, page: 3, nextSeen: true },
      whole: true,
    },
    { row: 'full, a larger page holds no more', page: FULL, larger: 2, whole: true },
    { row: 'full, nothing at the pointer', page: FULL, whole: false },
    { row: 'full, a larger page holds more', page: FULL, larger: 3, whole: false },
    {
      row: 'full at the description limit, no size asked',
      page: { ...FULL, asked: undefined, limit: 2 },
      whole: false,
    },
    {
      row: 'a next value, no way to ask for it',
      page: { ...FULL, items: 1, next: 'abc', canAsk: false },
      whole: false,
    },
  ])('$row: whole $whole', ({ page, larger, whole }) => {
    const reach = reachedEnd(page, larger);
    expect(reach.whole).toBe(whole);
    // A walk that did not reach the end says so, and never counts the list from what it saw.
    if (!reach.whole)
      expect(reach.why).toMatch(/^the walk could not ask for page 2: .*only page 1/);
  });
});
