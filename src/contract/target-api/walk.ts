/**
 * A walk of a list as a target's description pages it: a token in a query parameter, a next link
 * to follow (to another origin only without a key, and only where the description says so), a
 * page number or an offset.
 */
import { LIMITS } from '../limits.ts';
import type { ContractClient, ContractResponse } from '../client.ts';
import { CheckFailure, CheckSkipped } from '../failure.ts';
import type { Place, TargetDescription } from './description.ts';
import { resolvePointer } from './pointer.ts';
import { placeName, readPlace, type Answered } from './place.ts';
import type { Reach } from '../judges/walks.ts';

/** What a walk needs of a target (a `Target`): its description, its client, and the list pages. */
export interface Walkable {
  readonly description: TargetDescription;
  readonly http: ContractClient;
  send(
    operation: 'listCollections' | 'listObjects',
    options: {
      query?: Record<string, string>;
      key?: string | undefined;
      params?: Record<string, unknown> | undefined;
    },
  ): Promise<ContractResponse & { path: string }>;
}

/** Options of a walk of a list. */
export interface WalkOptions {
  operation?: 'listCollections' | 'listObjects';
  params?: Record<string, unknown>;
  key?: string | undefined;
  pageSize?: number | undefined;
  /** More query parameters for every page asked for (not for followed links). */
  query?: Record<string, string>;
  /** Skips the check when the walk cannot show it saw every item. */
  complete?: boolean;
  /** The key page `page` (1, 2, ...) is asked for with, when not `key` (explore's tokens presented with another key). */
  keyFor?: ((page: number) => string | undefined) | undefined;
  /** Called with each page's items before the next page is asked for (explore writes between pages). */
  onPage?: ((page: number, items: unknown[]) => Promise<void>) | undefined;
}

/** What a walk saw. */
export interface Walk {
  items: unknown[];
  pages: number;
  /** Whether the walk reached the end of the list ({@link reachedEnd}): a rule about the whole list is judged only then. */
  reach: Reach;
  /** Why the walk is only part of the list, when it is (the `why` of `reach`). */
  partial?: string | undefined;
  /** The walk stopped at the kit's own bound (`--max-walk-items`, the most pages), not the list's. */
  bounded?: true;
}

/**
 * A walk's items, to act on as the whole list: a walk short of the end skips a check that needs
 * it `complete`; one the kit's own bounds stopped fails, naming the bound, for whatever needs the
 * whole list to act on (what was there before the run, what it left, what a sweep deletes).
 */
export function itemsToActOn(walk: Walk, complete?: boolean): unknown[] {
  if (complete && walk.partial) throw new CheckSkipped(walk.partial);
  if (walk.bounded) throw new CheckFailure(walk.partial!);
  return walk.items;
}

/** What the page a walk stopped at showed of the way on, for {@link reachedEnd}. */
export interface LastPage {
  /** Its number (1 for the first page). */
  page: number;
  /** How many items it held. */
  items: number;
  /** The page size the walk sent, if it sent one (the description names its parameter). */
  asked?: number | undefined;
  /** The largest page size the description says the target accepts (`limits.pageSize`). */
  limit?: number | undefined;
  /** What the page holds where the description says the next page is: undefined where nothing is there. */
  next: unknown;
  /** Where that is (a pointer, a header), in words, for the reason. */
  pointer: string;
  /** Whether an earlier page of the walk held a next value there: the pointer is the target's. */
  nextSeen: boolean;
  /** Whether the description says how to ask for the next page (a token parameter, or a link to follow). */
  canAsk: boolean;
}

/**
 * Whether a walk that stops at `last` reached the end of the list, and if not, why: the one rule
 * for every front-end (the suite's checks, explore's walks, replay's reads), so that a rule about
 * the whole list is never passed on part of it.
 *
 * - A next value the description gives no way to ask for: only page 1 was seen.
 * - Nothing at the next pointer on a first page that came back full (as many items as the page
 *   size asked, or the description's page-size limit): the next page may be given where the
 *   description cannot say (an HTTP `Link` header, RFC 8288). `larger`, the items of the same
 *   page asked for with one more, tells: more than the page held, the list goes on; as many, the
 *   list ends there (a list exactly one page long, or a target that does not page at all).
 * - Otherwise (a stated end, `null` or empty; a page not full; a pointer an earlier page used):
 *   the end.
 */
export function reachedEnd(last: LastPage, larger?: number): Reach {
  const only = `only page ${last.page} (${last.items} items) was seen`;
  const value = nextValue(last.next);
  if (value !== undefined && !last.canAsk)
    return {
      whole: false,
      why: `the walk could not ask for page ${last.page + 1}: the list has more than one page (a next value at ${last.pointer}) and the description says no way to ask for the next one (paging.pageToken, follow, page or offset): ${only}`,
    };
  const full = fullPage(last);
  // @note A stated end (null, empty) is the target's word; so is nothing where a page before
  // held the next value.
  if (last.next !== undefined || last.nextSeen || !full) return { whole: true };
  if (larger !== undefined && larger <= last.items) return { whole: true };
  const told =
    larger !== undefined
      ? `, and the same page asked for ${last.items + 1} items held ${larger}, so the list goes on`
      : '';
  return {
    whole: false,
    why: `the walk could not ask for page ${last.page + 1}: page ${last.page} came back full (${full}) with no next page at ${last.pointer}${told}; a next page given elsewhere is one the description can state (list.next: { header: Link } for an RFC 8288 Link header): ${only}`,
  };
}

/** How a page is full, if it is: as many items as the page size asked, or the page-size limit. */
function fullPage(last: LastPage): string | undefined {
  if (last.asked !== undefined && last.items === last.asked)
    return `${last.items} items, the page size asked`;
  if (last.limit !== undefined && last.items >= last.limit)
    return `${last.items} items, the page-size limit of the description`;
  return undefined;
}

/**
 * The page size to ask for to tell whether a full page was the last ({@link reachedEnd}), where
 * one may be asked: one more than the page held, within the description's limit.
 */
function largerPage(last: LastPage, parameter: string | undefined): number | undefined {
  if (parameter === undefined || last.asked === undefined) return undefined;
  const size = last.items + 1;
  return last.limit !== undefined && size > last.limit ? undefined : size;
}

/** The walk of `Target.walk`. */
export async function walkList(target: Walkable, options: WalkOptions = {}): Promise<Walk> {
  const operation = options.operation ?? 'listCollections';
  // @note The objects of a collection may page their own way (`objectList`).
  const { paging, list } =
    operation === 'listObjects' && target.description.objectList
      ? target.description.objectList
      : target.description;
  const items: unknown[] = [];
  const seen = new Set<string>();
  let next: string | undefined;
  // @note A link is resolved against the page that held it, as a browser would: absolute,
  // root-relative (`/v1/collections?page=2`) and relative links all work.
  let pageUrl = '';
  let previous = '';
  for (let page = 1; page <= LIMITS.maxWalkPages; page++) {
    const query: Record<string, string> = { ...options.query };
    if (paging.pageSize && options.pageSize) query[paging.pageSize] = String(options.pageSize);
    if (paging.page) query[paging.page] = String((paging.firstPage ?? 1) + page - 1);
    if (paging.offset) query[paging.offset] = String(items.length);
    let response: ContractResponse;
    const key = options.keyFor?.(page) ?? options.key;
    if (next !== undefined && paging.follow) {
      pageUrl = new URL(next, pageUrl).href;
      if (!target.http.isHome(pageUrl) && paging.crossOrigin !== 'withoutKey')
        throw new CheckFailure(
          `page ${page - 1} of the list links its next page to another origin, ${new URL(pageUrl).origin} (${pageUrl}): the suite sends keys to ${new URL(target.http.baseUrl).origin} only, so it did not follow it (a description with paging.crossOrigin: withoutKey follows such links without credentials)`,
        );
      response = await target.http.request('GET', pageUrl, { key });
    } else {
      if (next !== undefined && paging.pageToken) query[paging.pageToken] = next;
      const sent = await target.send(operation, {
        query,
        key,
        params: options.params,
      });
      pageUrl = new URL(`${target.http.baseUrl.replace(/\/$/, '')}${sent.path}`).href;
      response = sent;
    }
    const numbered = paging.page !== undefined || paging.offset !== undefined;
    // @note Past the last numbered page some frameworks answer 404 (Django REST framework's
    // "Invalid page"): the end of the list, not a failure.
    if (numbered && page > 1 && response.status === 404)
      return { items, pages: page - 1, reach: { whole: true } };
    if (response.status !== 200)
      throw new CheckFailure(`${operation} (page ${page}) answered ${response.status}, not 200`);
    const found = resolvePointer(response.json, list.items);
    if (!Array.isArray(found))
      throw new CheckFailure(
        `page ${page} of the list has no array at ${list.items || '(the body)'}`,
      );
    // @note A target that clamps the page number answers its last page again: the end.
    const same = JSON.stringify(found) === previous && found.length > 0;
    if (numbered && same) return { items, pages: page - 1, reach: { whole: true } };
    // @note Bounded: a walk past the limit ends there, short of the end. The limit is the
    // kit's, not the target's: no rule about the whole list is judged on it, none failed.
    const max = target.http.maxWalkItems;
    if (items.length + found.length > max) {
      const why = `the list did not end within ${max} items (${page} pages): the walk stopped there (--max-walk-items raises the limit)`;
      return { items, pages: page, reach: { whole: false, why }, partial: why, bounded: true };
    }
    previous = JSON.stringify(found);
    for (const item of found) items.push(item);
    await options.onPage?.(page, found);
    const totalItems = whole(response, paging.totalItems);
    const totalPages = whole(response, paging.totalPages);
    if (paging.page || paging.offset) {
      // @note Numbered and offset pages end at the stated total, at a next value given as
      // null or empty, or at the first empty page.
      const stated = readPlace(response, list.next);
      const last =
        found.length === 0 ||
        stated === null ||
        stated === '' ||
        (totalPages !== undefined && page >= totalPages) ||
        (totalItems !== undefined && items.length >= totalItems);
      if (!last) continue;
      // @note Judged on complete walks only: those run alone (exclusive checks), while other
      // walks may see another check's write move the total between two pages.
      if (options.complete && totalItems !== undefined && items.length !== totalItems)
        throw new CheckFailure(
          `the list says it holds ${totalItems} collections (at ${placeName(paging.totalItems!)}); walking its pages showed ${items.length}`,
        );
      return { items, pages: page, reach: { whole: true } };
    }
    next = nextValue(readPlace(response, list.next));
    const canAsk = paging.follow || paging.pageToken !== undefined;
    if (next === undefined || !canAsk) {
      const last: LastPage = {
        page,
        items: found.length,
        asked: paging.pageSize ? options.pageSize : undefined,
        limit: target.description.limits.pageSize,
        next: readPlace(response, list.next),
        pointer: placeName(list.next),
        nextSeen: seen.size > 0,
        canAsk,
      };
      // @note Asked only where the page alone cannot tell (a full first page, nothing at the
      // next pointer): the same page, one item larger.
      let reach = reachedEnd(last);
      const size = reach.whole ? undefined : largerPage(last, paging.pageSize);
      if (size !== undefined && next === undefined) {
        const again = await target.send(operation, {
          query: { ...query, [paging.pageSize!]: String(size) },
          key,
          params: options.params,
        });
        const more = again.status === 200 ? resolvePointer(again.json, list.items) : undefined;
        if (Array.isArray(more)) reach = reachedEnd(last, more.length);
      }
      if (!reach.whole) return { items, pages: page, reach, partial: reach.why };
      if (options.complete && totalItems !== undefined && items.length !== totalItems)
        throw new CheckFailure(
          `the list says it holds ${totalItems} items (at ${placeName(paging.totalItems!)}); walking its pages showed ${items.length}`,
        );
      return { items, pages: page, reach };
    }
    if (seen.has(next))
      throw new CheckFailure(
        `the list returned the same next-page token twice: the walk would never end`,
      );
    seen.add(next);
  }
  const why = `the list did not end after ${LIMITS.maxWalkPages} pages: the walk stopped there`;
  return {
    items,
    pages: LIMITS.maxWalkPages,
    reach: { whole: false, why },
    partial: why,
    bounded: true,
  };
}

/** A next-page token or link as a page holds it: a string or a number; anything else is none. */
export function nextValue(next: unknown): string | undefined {
  if (typeof next === 'string' && next !== '') return next;
  return typeof next === 'number' ? String(next) : undefined;
}

/**
 * A whole number where the description says a list page gives one, if it names a place: a
 * header's value is text (`X-Total-Count: 12`).
 */
function whole(page: Answered, place: Place | undefined): number | undefined {
  if (place === undefined) return undefined;
  const found = readPlace(page, place);
  const value = typeof found === 'string' && /^\d+$/.test(found.trim()) ? Number(found) : found;
  return Number.isInteger(value) && (value as number) >= 0 ? (value as number) : undefined;
}
