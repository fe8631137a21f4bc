import { firstIndex } from './binary-search.ts';
import type { KeysetPosition } from './cursor.ts';

/**
 * Creation order, the one order of the API (lists, walks, ties in search): by creation date,
 * then by id. The binary search and the sorted insert, replace and remove that keep arrays in it.
 * @see spec §4 (COLL-LIST-3)
 */

/** Anything ordered by creation date, ties broken by id. */
export type Keyed = KeysetPosition;

/**
 * Compares by creation date, then id.
 * @note Timestamps are always `toISOString()` output (fixed width, UTC), so comparing them as
 * strings is comparing them as dates.
 */
export function compareByCreation(a: Keyed, b: Keyed): number {
  if (a.created_at !== b.created_at) return a.created_at < b.created_at ? -1 : 1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/** Index of the first item strictly after `position` in creation order. */
export function indexAfter(items: readonly Keyed[], position: Keyed): number {
  return firstIndex(items.length, (i) => compareByCreation(items[i]!, position) > 0);
}

/** Index of the first item not before `position` in creation order. */
export function indexAtOrAfter(items: readonly Keyed[], position: Keyed): number {
  return firstIndex(items.length, (i) => compareByCreation(items[i]!, position) >= 0);
}

/**
 * Inserts `item` at its place in creation order; returns the index.
 * @note Creation dates come from a monotonic clock, so this is an append except after a load.
 */
export function insertSorted<T extends Keyed>(list: T[], item: T): number {
  // @note The common case first: one comparison with the last item instead of a binary search,
  // whose probes are reads scattered over memory in a large store.
  const last = list.at(-1);
  if (last === undefined || compareByCreation(last, item) < 0) return list.push(item) - 1;
  const at = indexAtOrAfter(list, item);
  list.splice(at, 0, item);
  return at;
}

/** Puts `next` where `previous` is (same id and date); returns the index, or -1 if absent. */
export function replaceSorted<T extends Keyed>(list: T[], previous: T, next: T): number {
  const at = indexAtOrAfter(list, previous);
  if (list[at] !== previous) return -1;
  list[at] = next;
  return at;
}

/** Removes `item`; returns the index it had, or -1 if absent. */
export function removeSorted<T extends Keyed>(list: T[], item: T): number {
  const at = indexAtOrAfter(list, item);
  if (list[at] !== item) return -1;
  list.splice(at, 1);
  return at;
}
