import type { KeysetPosition } from './cursor.ts';
import { indexAfter, indexAtOrAfter, type Keyed } from './creation-order.ts';

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
