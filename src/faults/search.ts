/** Faults of search: what it matches, what it indexes, and whose objects it looks through. */
import type { MockState } from '../core/store/mock-state.ts';
import type { MockRequest } from '../core/http.ts';
import { toObject } from '../core/store/records.ts';
import { problem } from '../core/problem.ts';
import {
  accountIds,
  fullKeyOf,
  isObject,
  objectsIn,
  operationIdOf,
  parseBody,
  requestJson,
  rewriteWhen,
  routeOf,
  withJsonBody,
  withKey,
  type Fault,
  type JsonObject,
} from './kit.ts';

/** Every object id the mock holds right now. */
function objectIdsNow(state: MockState): Set<string> {
  const { store } = state;
  return new Set(
    accountIds(state).flatMap((account) =>
      store.collectionsOf(account).flatMap((c) => store.objectsOf(c.id).map((o) => o.id)),
    ),
  );
}

export const SEARCH_FAULTS = {
  'search-ignores-query': {
    description:
      "Search returns all of the caller's objects (oldest first, score 1) whatever the query.",
    clauses: ['SEARCH-1', 'GAP-SEARCH-MATCH', 'GAP-SEARCH-RESP'],
    wrap: (state) => async (request, next) => {
      const route = routeOf(request);
      const search = requestJson(request);
      if (route?.operation.operationId !== 'searchObjects' || !isObject(search)) {
        return next(request);
      }
      // The core would refuse this fault's own cursors: it sees the request without one.
      const { cursor, ...rest } = search;
      const forwarded: MockRequest =
        cursor === undefined
          ? request
          : { ...request, body: new TextEncoder().encode(JSON.stringify(rest)) };
      const result = await next(forwarded);
      if (operationIdOf(result) !== 'searchObjects' || result.response.status !== 200) {
        return result;
      }
      const accountId = result.accountId!;
      const { store, cursors } = state;
      const collectionIds = Array.isArray(search.collection_ids)
        ? search.collection_ids.map(String)
        : store.collectionsOf(accountId).map((collection) => collection.id);
      const all = collectionIds
        .flatMap((id) => [...store.objectsOf(id)])
        .sort((a, b) =>
          a.created_at < b.created_at ? -1 : a.created_at > b.created_at ? 1 : a.id < b.id ? -1 : 1,
        );
      const scope = `fault:search-ignores-query:${accountId}:${[...collectionIds].sort().join(',')}`;
      const offset = typeof cursor === 'string' ? cursors.decodeOffset(scope, cursor) : 0;
      if (offset === undefined) {
        return {
          ...result,
          response: problem('invalid_cursor', 'The cursor is not one this search returned.'),
        };
      }
      const limit = typeof search.limit === 'number' ? search.limit : 10;
      const hasMore = offset + limit < all.length;
      return rewriteWhen(result, ['searchObjects'], [200], (body) => ({
        ...body,
        data: all.slice(offset, offset + limit).map((object) => ({
          score: 1,
          collection_id: object.collection_id,
          object: toObject(object),
        })),
        total: all.length,
        has_more: hasMore,
        next_cursor: hasMore ? cursors.encodeOffset(scope, offset + limit) : null,
      }));
    },
  },

  'search-index-stale': {
    description:
      'The search index is built at start-up and never updated: objects created later are never found.',
    clauses: ['SEARCH-1', 'GAP-SEARCH-MATCH'],
    wrap: (state) => {
      const indexed = objectIdsNow(state);
      return async (request, next) => {
        const result = await next(request);
        return rewriteWhen(result, ['searchObjects'], [200], (body) => {
          const hits = objectsIn(body);
          const kept = hits.filter(
            (hit) => isObject(hit.object) && indexed.has(String(hit.object.id)),
          );
          return { ...body, data: kept, total: Number(body.total) - (hits.length - kept.length) };
        });
      };
    },
  },

  'search-filter-ignored': {
    description: 'collection_ids in a search body is ignored: every search is account-wide.',
    clauses: ['GAP-SEARCH-REQ'],
    wrap: () => async (request, next) => {
      const search = requestJson(request);
      if (routeOf(request)?.operation.operationId !== 'searchObjects' || !isObject(search)) {
        return next(request);
      }
      if (search.collection_ids === undefined) return next(request);
      const { collection_ids: _ignored, ...rest } = search;
      return next(withJsonBody(request, rest));
    },
  },

  'search-cross-account': {
    description:
      "Search runs over every account: the last page of a search also holds other accounts' hits.",
    clauses: ['ISO-1', 'AUTH-2', 'GAP-ISOLATION'],
    wrap: (state) => async (request, next) => {
      const result = await next(request);
      if (operationIdOf(result) !== 'searchObjects' || result.response.status !== 200) {
        return result;
      }
      const page = parseBody(result.response.body);
      const search = requestJson(request);
      if (!isObject(page) || page.has_more === true || !isObject(search)) return result;
      const { cursor: _cursor, ...first } = search;
      const foreign: JsonObject[] = [];
      let extra = 0;
      for (const account of accountIds(state)) {
        const key = account === result.accountId ? undefined : fullKeyOf(state, account);
        if (!key) continue;
        const theirs = await next(withJsonBody(withKey(request, key), first));
        const body = parseBody(theirs.response.body);
        if (theirs.response.status !== 200 || !isObject(body)) continue;
        foreign.push(...objectsIn(body));
        extra += Number(body.total) || 0;
      }
      if (foreign.length === 0) return result;
      const limit = typeof search.limit === 'number' ? search.limit : 10;
      return rewriteWhen(result, ['searchObjects'], [200], (body) => ({
        ...body,
        data: [...objectsIn(body), ...foreign]
          .sort((a, b) => Number(b.score) - Number(a.score))
          .slice(0, limit),
        total: Number(body.total) + extra,
      }));
    },
  },
} as const satisfies Record<string, Fault>;
