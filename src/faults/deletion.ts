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
 * Forwards a request and, when it is a deleteCollection that the core answers 204, keeps what the
 * collection held just before (its representation and its objects) in `graveyard`.
 */
async function forwardKeepingRemains(
  state: MockState,
  graveyard: Map<string, Remains>,
  request: MockRequest,
  next: Next,
): Promise<HandledRequest> {
  const route = routeOf(request);
  if (route?.operation.operationId !== 'deleteCollection') return next(request);
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
 * Whether a search's words match an object no longer stored, scored with a vocabulary of its own
 * (the mock's counts only live objects' words), packed once per object: a run searches its
 * graveyard many times over.
 */
function graveyardMatcher(): (object: ObjectRecord, queryWords: string[]) => boolean {
  const packed = new WeakMap<
    ObjectRecord,
    { vocabulary: Vocabulary; packed: ReturnType<typeof packTerms> }
  >();
  return (object, queryWords) => {
    let terms = packed.get(object);
    if (!terms) {
      const vocabulary = new Vocabulary();
      terms = { vocabulary, packed: packTerms(object.content, vocabulary) };
      packed.set(object, terms);
    }
    return score(terms.packed, queryTerms(queryWords, terms.vocabulary)) > 0;
  };
}

/** A search's answer with `leftovers` added last (score 1 is below every real hit). */
function withLeftovers(result: HandledRequest, leftovers: readonly ObjectRecord[]): HandledRequest {
  if (leftovers.length === 0) return result;
  return rewriteWhen(result, ['searchObjects'], [200], (body) => ({
    ...body,
    data:
      body.has_more === true
        ? body.data
        : [
            ...objectsIn(body),
            ...leftovers.map((object) => ({
              score: 1,
              collection_id: object.collection_id,
              object: toObject(object),
            })),
          ],
    total: Number(body.total) + leftovers.length,
  }));
}

export const DELETION_FAULTS = {
  'delete-not-cascading': {
    description:
      'Deleting a collection leaves its objects behind: they stay gettable by id and show up in account-wide search.',
    clauses: ['DEL-2', 'DEL-3', 'GAP-DEL-RESP', 'GAP-STATES'],
    wrap: (state) => {
      const graveyard = new Map<string, Remains>();
      const matches = graveyardMatcher();
      return async (request, next) => {
        const result = reviveObject(
          state,
          graveyard,
          request,
          await forwardKeepingRemains(state, graveyard, request, next),
        );
        if (operationIdOf(result) !== 'searchObjects' || result.response.status !== 200) {
          return result;
        }
        const search = requestJson(request);
        if (!isObject(search) || search.collection_ids !== undefined) return result;
        const queryWords = words(String(search.query));
        const leftovers = [...graveyard.values()]
          .filter((remains) => remains.accountId === result.accountId)
          .flatMap((remains) => [...remains.objects.values()])
          .filter((object) => !state.store.hasId(object.id) && matches(object, queryWords));
        // @note Ranked last, so they go on the last page.
        return withLeftovers(result, leftovers);
      };
    },
  },

  'deleted-object-searchable': {
    description:
      'A deleted object is gone by id, but the search index keeps it: an account-wide search still finds it.',
    clauses: ['DEL-3'],
    wrap: (state) => {
      const deleted = new Map<string, { accountId: string; object: ObjectRecord }>();
      const matches = graveyardMatcher();
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
        const result = await next(request);
        if (operationIdOf(result) !== 'searchObjects' || result.response.status !== 200)
          return result;
        const search = requestJson(request);
        if (!isObject(search) || search.collection_ids !== undefined) return result;
        const queryWords = words(String(search.query));
        const leftovers = [...deleted.values()]
          .filter((each) => each.accountId === result.accountId)
          .map((each) => each.object)
          .filter((object) => !state.store.hasId(object.id) && matches(object, queryWords));
        return withLeftovers(result, leftovers);
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
        const result = reviveObject(
          state,
          graveyard,
          request,
          await forwardKeepingRemains(state, graveyard, request, next),
        );
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
