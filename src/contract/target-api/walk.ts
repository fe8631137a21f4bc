/**
 * A walk of a list as a target's description pages it: a token in a query parameter, a next link
 * to follow (to another origin only without a key, and only where the description says so), a
 * page number or an offset.
 */
import { LIMITS } from '../limits.ts';
import type { ContractClient, ContractResponse } from '../client.ts';
import { CheckFailure } from '../failure.ts';
import type { TargetDescription } from './description.ts';
import { resolvePointer } from './pointer.ts';

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
  /** Why the walk is only part of the list, when it is. */
  partial?: string | undefined;
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
    if (numbered && page > 1 && response.status === 404) return { items, pages: page - 1 };
    if (response.status !== 200)
      throw new CheckFailure(`${operation} (page ${page}) answered ${response.status}, not 200`);
    const found = resolvePointer(response.json, list.items);
    if (!Array.isArray(found))
      throw new CheckFailure(
        `page ${page} of the list has no array at ${list.items || '(the body)'}`,
      );
    // @note A target that clamps the page number answers its last page again: the end.
    const same = JSON.stringify(found) === previous && found.length > 0;
    if (numbered && same) return { items, pages: page - 1 };
    // @note Bounded: a walk past the limit ends the walk, not the process.
    const max = target.http.maxWalkItems;
    if (items.length + found.length > max)
      throw new CheckFailure(
        `the list did not end within ${max} items (${page} pages): the walk stopped there (--max-walk-items raises the limit)`,
      );
    previous = JSON.stringify(found);
    for (const item of found) items.push(item);
    await options.onPage?.(page, found);
    const totalItems = whole(response.json, paging.totalItems);
    const totalPages = whole(response.json, paging.totalPages);
    if (paging.page || paging.offset) {
      // @note Numbered and offset pages end at the stated total, at a next value given as
      // null or empty, or at the first empty page.
      const stated = resolvePointer(response.json, list.next);
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
          `the list says it holds ${totalItems} collections (at ${paging.totalItems}); walking its pages showed ${items.length}`,
        );
      return { items, pages: page };
    }
    next = nextAt(response.json, list.next);
    if (next === undefined) {
      if (options.complete && totalItems !== undefined && items.length !== totalItems)
        throw new CheckFailure(
          `the list says it holds ${totalItems} items (at ${paging.totalItems}); walking its pages showed ${items.length}`,
        );
      return { items, pages: page };
    }
    if (!paging.follow && !paging.pageToken)
      return {
        items,
        pages: page,
        partial: `the list has more than one page (a next value at ${list.next}) and the description says no way to ask for the next one (paging.pageToken, follow, page or offset): only page 1 (${found.length} items) was seen`,
      };
    if (seen.has(next))
      throw new CheckFailure(
        `the list returned the same next-page token twice: the walk would never end`,
      );
    seen.add(next);
  }
  throw new CheckFailure(`the list did not end after ${LIMITS.maxWalkPages} pages`);
}

/** The next-page token or link at `pointer`, or undefined on the last page. */
function nextAt(body: unknown, pointer: string): string | undefined {
  const next = resolvePointer(body, pointer);
  if (typeof next === 'string' && next !== '') return next;
  return typeof next === 'number' ? String(next) : undefined;
}

/** A whole number at `pointer` of a list body, if the description names one. */
function whole(body: unknown, pointer: string | undefined): number | undefined {
  if (pointer === undefined) return undefined;
  const value = resolvePointer(body, pointer);
  return Number.isInteger(value) && (value as number) >= 0 ? (value as number) : undefined;
}
