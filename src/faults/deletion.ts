/** Faults of deleting a collection: what it leaves behind, and what a second delete gets. */
import type { MockState } from '../core/store/mock-state.ts';
import type { HandledRequest } from '../core/http.ts';
import { json, noContent, type MockRequest } from '../core/http.ts';
import { toCollection, toObject, type ObjectRecord } from '../core/store/records.ts';
import { packTerms, queryTerms, score, words } from '../core/search/search-index.ts';
import { Vocabulary } from '../core/search/vocabulary.ts';
import {
  accountIds,
  isObject,
  objectsIn,
  operationIdOf,
  requestJson,
  rewriteWhen,
  routeOf,
  type Fault,
  type JsonObject,
  type Next,
} from './kit.ts';

/** What a buggy delete leaves behind, shared by `delete-not-cascading` and `soft-delete`. */
interface Remains {
  accountId: string;
  collection: JsonObject;
  objects: Map<string, ObjectRecord>;
}

/**
 * Forwards a request past `graveyard`: when it is a deleteCollection that the core answers 204,
 * keeps there what the collection held just before (its representation and its objects); a
 * getObject gets what was left behind there (`reviveObject`).
 */
async function forwardPastGraveyard(
  state: MockState,
  graveyard: Map<string, Remains>,
  request: MockRequest,
  next: Next,
): Promise<HandledRequest> {
  const route = routeOf(request);
  if (route?.operation.operationId !== 'deleteCollection') {
    return reviveObject(state, graveyard, request, await next(request));
  }
  const { store } = state;
  const id = route.params.collection_id!;
  const owner = accountIds(state).find((account) => store.findCollection(account, id));
  const record = owner === undefined ? undefined : store.findCollection(owner, id);
  const remains: Remains | undefined = record && {
    accountId: record.account_id,
    collection: toCollection(record, store.objectCount(id)),
    objects: new Map(store.objectsOf(id).map((object) => [object.id, object])),
  };
  const result = await next(request);
  if (remains && result.response.status === 204 && result.accountId === remains.accountId) {
    graveyard.set(id, remains);
  }
  return result;
}

/** A left-behind object for a getObject the core answered 404, if the caller owned it. */
function reviveObject(
  state: MockState,
  graveyard: Map<string, Remains>,
  request: MockRequest,
  result: HandledRequest,
): HandledRequest {
  if (operationIdOf(result) !== 'getObject' || result.response.status !== 404) return result;
  const params = routeOf(request)?.params ?? {};
  const remains = graveyard.get(params.collection_id ?? '');
  const object = remains?.objects.get(params.object_id ?? '');
  if (!remains || !object || remains.accountId !== result.accountId) return result;
  // @note After a reset the seed brings the id back; then the core answers, not the graveyard.
  if (state.store.hasId(object.id)) return result;
  return { ...result, response: json(200, toObject(object)) };
}

/**
 * Adds to an account-wide search's answer the caller's `leftovers` (objects no longer stored) that
 * match its words, last (score 1 is below every real hit, so they go on the last page). Each
 * leftover is scored with a vocabulary of its own (the mock's counts only live objects' words),
 * packed once: a run searches its graveyard many times over.
 */
function searchingLeftovers(state: MockState) {
  const packed = new WeakMap<
    ObjectRecord,
    { vocabulary: Vocabulary; packed: ReturnType<typeof packTerms> }
  >();
  const matches = (object: ObjectRecord, queryWords: string[]) => {
    let terms = packed.get(object);
    if (!terms) {
      const vocabulary = new Vocabulary();
      terms = { vocabulary, packed: packTerms(object.content, vocabulary) };
      packed.set(object, terms);
    }
    return score(terms.packed, queryTerms(queryWords, terms.vocabulary)) > 0;
  };
  return (
    request: MockRequest,
    result: HandledRequest,
    leftovers: (accountId: string | undefined) => ObjectRecord[],
  ): HandledRequest => {
    if (operationIdOf(result) !== 'searchObjects' || result.response.status !== 200) return result;
    const search = requestJson(request);
    if (!isObject(search) || search.collection_ids !== undefined) return result;
    const queryWords = words(String(search.query));
    const found = leftovers(result.accountId).filter(
      (object) => !state.store.hasId(object.id) && matches(object, queryWords),
    );
    if (found.length === 0) return result;
    return rewriteWhen(result, ['searchObjects'], [200], (body) => ({
      ...body,
      data:
        body.has_more === true
          ? body.data
          : [
              ...objectsIn(body),
              ...found.map((object) => ({
                score: 1,
                collection_id: object.collection_id,
                object: toObject(object),
              })),
            ],
      total: Number(body.total) + found.length,
    }));
  };
}

export const DELETION_FAULTS = {
  'delete-not-cascading': {
    description:
      'Deleting a collection leaves its objects behind: they stay gettable by id and show up in account-wide search.',
    clauses: ['DEL-2', 'DEL-3', 'GAP-DEL-RESP', 'GAP-STATES'],
    wrap: (state) => {
      const graveyard = new Map<string, Remains>();
      const withLeftovers = searchingLeftovers(state);
      return async (request, next) => {
        const result = await forwardPastGraveyard(state, graveyard, request, next);
        return withLeftovers(request, result, (accountId) =>
          [...graveyard.values()]
            .filter((remains) => remains.accountId === accountId)
            .flatMap((remains) => [...remains.objects.values()]),
        );
      };
    },
  },

  'deleted-object-searchable': {
    description:
      'A deleted object is gone by id, but the search index keeps it: an account-wide search still finds it.',
    clauses: ['DEL-3'],
    wrap: (state) => {
      const deleted = new Map<string, { accountId: string; object: ObjectRecord }>();
      const withLeftovers = searchingLeftovers(state);
      return async (request, next) => {
        const route = routeOf(request);
        if (route?.operation.operationId === 'deleteObject') {
          const { collection_id: collectionId = '', object_id: objectId = '' } = route.params;
          const owner = accountIds(state).find((account) =>
            state.store.findObject(account, collectionId, objectId),
          );
          const object = owner && state.store.findObject(owner, collectionId, objectId);
          const result = await next(request);
          if (owner && object && result.response.status === 204 && result.accountId === owner)
            deleted.set(objectId, { accountId: owner, object });
          return result;
        }
        return withLeftovers(request, await next(request), (accountId) =>
          [...deleted.values()]
            .filter((each) => each.accountId === accountId)
            .map((each) => each.object),
        );
      };
    },
  },

  'soft-delete': {
    description:
      'A deleted collection leaves the list, but getting it (or its objects) by id still answers 200.',
    clauses: ['DEL-1', 'DEL-3', 'GAP-STATES', 'GAP-DEL-RESP'],
    wrap: (state) => {
      const graveyard = new Map<string, Remains>();
      return async (request, next) => {
        const result = await forwardPastGraveyard(state, graveyard, request, next);
        if (operationIdOf(result) !== 'getCollection' || result.response.status !== 404) {
          return result;
        }
        const remains = graveyard.get(routeOf(request)?.params.collection_id ?? '');
        if (!remains || remains.accountId !== result.accountId) return result;
        if (state.store.hasId(String(remains.collection.id))) return result;
        return { ...result, response: json(200, remains.collection) };
      };
    },
  },

  'delete-twice-succeeds': {
    description:
      'Deleting a collection the caller already deleted answers 204 again instead of 404 collection_not_found.',
    clauses: ['GAP-DEL-RESP', 'GAP-STATES'],
    wrap: () => {
      const deleted = new Map<string, string>();
      return async (request, next) => {
        const result = await next(request);
        if (operationIdOf(result) !== 'deleteCollection' || result.accountId === undefined) {
          return result;
        }
        const id = routeOf(request)?.params.collection_id ?? '';
        if (result.response.status === 204) deleted.set(id, result.accountId);
        if (result.response.status === 404 && deleted.get(id) === result.accountId) {
          return { ...result, response: noContent() };
        }
        return result;
      };
    },
  },
} as const satisfies Record<string, Fault>;
