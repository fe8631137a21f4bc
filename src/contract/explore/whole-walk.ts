/**
 * Whether one of explore's walks reached the end of the list: only a walk that did may pass a
 * rule about the whole list (each collection once, COLL-LIST-2; their order, COLL-LIST-3; a
 * collection's objects, OBJ-1). What it did not see could break each.
 *
 * @note Kept here until it is merged with the same predicate of target-api/walk.ts (written
 * on another branch of issue 47): one predicate for every front-end.
 */
import type { Walk, WalkOptions } from '../target-api/walk.ts';
import type { TargetDescription } from '../target-api/description.ts';
import type { Reach } from '../judges/walks.ts';

/**
 * The reach of `walk`, asked for in pages of `pageSize`: not whole when it was cut (`partial`:
 * no way to ask for the next page, a limit), or when its one page was full and showed no next
 * page, as a list whose next page is given elsewhere (a `Link` header the description does not
 * name) looks: the list may go on.
 */
export function reachOf(walk: Walk, pageSize: number, paging: TargetDescription['paging']): Reach {
  if (walk.partial) return { whole: false, why: `the walk did not reach the end: ${walk.partial}` };
  // @note Numbered and offset pages end at an empty page, a stated total or a next value given
  // as null: a full last page is then the end, said so.
  // Without a page size to send, a page's fullness is the target's own: unknown.
  const numbered = paging.page !== undefined || paging.offset !== undefined;
  if (
    !numbered &&
    paging.pageSize !== undefined &&
    walk.pages === 1 &&
    pageSize > 0 &&
    walk.items.length >= pageSize
  )
    return {
      whole: false,
      why: `the walk did not reach the end: its one page was full (${walk.items.length} items) and named no next page, so the list may go on`,
    };
  return { whole: true };
}

/**
 * The reach of a walk, its one full page with no next page looked at again: the same list asked
 * for in a page one larger (`again`) shows whether it goes on. A list of exactly one page then
 * reached its end; a list whose next page is named elsewhere did not.
 */
export async function reachOfWalk(
  walk: Walk,
  pageSize: number,
  paging: TargetDescription['paging'],
  largest: number | undefined,
  again: (options: Pick<WalkOptions, 'pageSize'>) => Promise<Walk>,
): Promise<Reach> {
  const reach = reachOf(walk, pageSize, paging);
  if (reach.whole || walk.partial || (largest !== undefined && pageSize >= largest)) return reach;
  const larger = await again({ pageSize: pageSize + 1 });
  return larger.items.length > walk.items.length ? reach : { whole: true };
}
