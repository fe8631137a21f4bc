import type { KeysetPosition } from './cursor.ts';

/** Anything ordered by creation date, ties broken by id. */
export type Keyed = KeysetPosition;

/**
 * @note Timestamps are always `toISOString()` output (fixed width, UTC), so comparing them as
 * strings is comparing them as dates.
 */
function compare(a: KeysetPosition, b: KeysetPosition): number {
  if (a.created_at !== b.created_at) return a.created_at < b.created_at ? -1 : 1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/** Index of the first item strictly after `position` in an ascending array (binary search). */
export function indexAfter(items: readonly Keyed[], position: KeysetPosition): number {
  let low = 0;
  let high = items.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (compare(items[mid]!, position) <= 0) low = mid + 1;
    else high = mid;
  }
  return low;
}

/** Index of the first item not before `position` (binary search). */
export function indexAtOrAfter(items: readonly Keyed[], position: KeysetPosition): number {
  let low = 0;
  let high = items.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (compare(items[mid]!, position) < 0) low = mid + 1;
    else high = mid;
  }
  return low;
}

/**
 * One page of an ascending array, in either direction, continuing after `after` (exclusive).
 * Because the position is a key and not an offset, deleting items between two page requests never
 * makes a page skip or repeat an item.
 * @see spec §4 (COLL-LIST-2, COLL-LIST-3); docs/spec-gaps.md GAP-PAGE-PARAMS
 */
export function keysetPage<T extends Keyed>(
  items: readonly T[],
  options: { limit: number; order: 'asc' | 'desc'; after?: KeysetPosition | undefined },
): { page: T[]; hasMore: boolean } {
  const { limit, order, after } = options;
  if (order === 'asc') {
    const start = after ? indexAfter(items, after) : 0;
    const page = items.slice(start, start + limit);
    return { page, hasMore: start + limit < items.length };
  }
  const end = after ? indexAtOrAfter(items, after) : items.length;
  const start = Math.max(0, end - limit);
  const page = items.slice(start, end).reverse();
  return { page, hasMore: start > 0 };
}
