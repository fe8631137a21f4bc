import { authenticate } from '../core/authenticate.ts';
import type { AnswersMock } from '../core/mock.ts';
import type { HandledRequest } from '../core/handle-request.ts';
import { json, noContent, type MockRequest, type MockResponse } from '../core/http.ts';
import { problem } from '../core/problem.ts';
import { serve } from '../core/serve.ts';
import { toCollection, toObject, type ObjectRecord } from '../core/model/records.ts';
import { validateBody, validateParameters } from '../core/request-validation.ts';
import { matchRoute } from '../core/router.ts';
import type { OperationSpec, Permission } from '../openapi/operations.ts';
import { packTerms, queryTerms, score, words } from '../core/model/search-index.ts';
import { FAULTS, type FaultName } from './faults.ts';

type JsonObject = Record<string, unknown>;
type Next = (request: MockRequest) => Promise<HandledRequest>;
/** One fault: rewrites the request before and/or the response after the core answers it. */
type Wrapper = (request: MockRequest, next: Next) => Promise<HandledRequest>;

const ALL_PERMISSIONS: readonly Permission[] = ['read', 'write', 'search'];
const CREDENTIAL_FAILURES = new Set([
  'missing_credentials',
  'malformed_credentials',
  'invalid_api_key',
  'inactive_api_key',
  'conflicting_api_keys',
]);

// ---------------------------------------------------------------------------------------------
// Helpers: plain reads and rewrites of requests and responses.

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The operation and path parameters a request routes to, if any. */
function routeOf(
  request: MockRequest,
): { operation: OperationSpec; params: Record<string, string> } | undefined {
  const match = matchRoute(request.path);
  const operation = match?.operations.get(request.method.toUpperCase());
  return match && operation ? { operation, params: match.params } : undefined;
}

function operationIdOf(result: HandledRequest): string | undefined {
  return result.operation?.operationId;
}

function parseBody(body: string | undefined): unknown {
  if (body === undefined || body === '') return undefined;
  try {
    return JSON.parse(body) as unknown;
  } catch {
    return undefined;
  }
}

function requestJson(request: MockRequest): unknown {
  if (!request.body || request.bodyTooLarge) return undefined;
  return parseBody(new TextDecoder().decode(request.body));
}

/** The problem `code` of an error response, if it is one. */
function problemCode(response: MockResponse): string | undefined {
  const value = parseBody(response.body);
  return isObject(value) && typeof value.code === 'string' ? value.code : undefined;
}

/** The response with its JSON body replaced by `change(body)`; every header is kept. */
function rewriteJson(response: MockResponse, change: (body: JsonObject) => unknown): MockResponse {
  const value = parseBody(response.body);
  if (!isObject(value)) return response;
  return { ...response, body: JSON.stringify(change(value)) };
}

/** Applies `change` to the response of `result` when its operation and status match. */
function rewriteWhen(
  result: HandledRequest,
  operationIds: readonly string[],
  statuses: readonly number[],
  change: (body: JsonObject) => unknown,
): HandledRequest {
  const operationId = operationIdOf(result);
  if (!operationId || !operationIds.includes(operationId)) return result;
  if (!statuses.includes(result.response.status)) return result;
  return { ...result, response: rewriteJson(result.response, change) };
}

/** The request with some headers replaced (a string) or removed (null); the rest unchanged. */
function withHeaders(request: MockRequest, changes: Record<string, string | null>): MockRequest {
  const base = request.headers;
  return {
    ...request,
    headers: { get: (name) => (Object.hasOwn(changes, name) ? changes[name]! : base.get(name)) },
  };
}

/** The request sent with `key` as its only credential. */
function withKey(request: MockRequest, key: string): MockRequest {
  return withHeaders(request, { 'x-answers-api-key': null, authorization: `Bearer ${key}` });
}

/** The first active key of the account that has every permission. */
function fullKeyOf(mock: AnswersMock, accountId: string): string | undefined {
  return mock.state.store.apiKeys.find(
    (key) =>
      key.account_id === accountId &&
      key.active &&
      ALL_PERMISSIONS.every((permission) => key.permissions.includes(permission)),
  )?.key;
}

/** Every account id the mock knows, from its accounts and its keys. */
function accountIds(mock: AnswersMock): string[] {
  const { store } = mock.state;
  return [
    ...new Set([...store.accounts.map((a) => a.id), ...store.apiKeys.map((k) => k.account_id)]),
  ];
}

function objectsIn(body: JsonObject): JsonObject[] {
  return Array.isArray(body.data) ? body.data.filter(isObject) : [];
}

/** The request with its JSON body replaced by `body`. */
function withJsonBody(request: MockRequest, body: unknown): MockRequest {
  return { ...request, body: new TextEncoder().encode(JSON.stringify(body)) };
}

/** The request with one header removed. */
function withoutHeader(request: MockRequest, name: string): MockRequest {
  return withHeaders(request, { [name]: null });
}

/** The request with its query string changed by `change`. */
function withQuery(request: MockRequest, change: (query: URLSearchParams) => void): MockRequest {
  const query = new URLSearchParams(request.query);
  change(query);
  return { ...request, query };
}

/** The core's credential check for a routed request, run ahead of the core (no side effects). */
function authenticationOf(mock: AnswersMock, request: MockRequest) {
  const route = routeOf(request);
  return (
    route && authenticate(request.headers, mock.state.store.apiKeys, route.operation.permission)
  );
}

/** Every object id the mock holds right now. */
function objectIdsNow(mock: AnswersMock): Set<string> {
  const { store } = mock.state;
  return new Set(
    accountIds(mock).flatMap((account) =>
      store.collectionsOf(account).flatMap((c) => store.objectsOf(c.id).map((o) => o.id)),
    ),
  );
}

// ---------------------------------------------------------------------------------------------
// What a buggy delete leaves behind, shared by `delete-not-cascading` and `soft-delete`.

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
  mock: AnswersMock,
  graveyard: Map<string, Remains>,
  request: MockRequest,
  next: Next,
): Promise<HandledRequest> {
  const route = routeOf(request);
  if (route?.operation.operationId !== 'deleteCollection') return next(request);
  const { store } = mock.state;
  const id = route.params.collection_id!;
  const owner = accountIds(mock).find((account) => store.findCollection(account, id));
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
  mock: AnswersMock,
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
  if (mock.state.store.hasId(object.id)) return result;
  return { ...result, response: json(200, toObject(object)) };
}

// ---------------------------------------------------------------------------------------------
// The faults: one factory each, called once per `withFault` so that state is per wrapped mock.

const FAULT_WRAPPERS: Record<FaultName, (mock: AnswersMock) => Wrapper> = {
  'auth-not-enforced': (mock) => async (request, next) => {
    const route = routeOf(request);
    if (!route) return next(request);
    // The core's own check, run ahead: only credential failures are waved through, not permissions.
    const auth = authenticate(
      request.headers,
      mock.state.store.apiKeys,
      route.operation.permission,
    );
    const key = fullKeyOf(mock, 'acme');
    if (auth.ok || !key || !CREDENTIAL_FAILURES.has(problemCode(auth.response) ?? '')) {
      return next(request);
    }
    return next(withKey(request, key));
  },

  'forbidden-instead-of-unauthorized': () => async (request, next) => {
    const result = await next(request);
    if (result.response.status !== 401) return result;
    const response = rewriteJson(result.response, (body) => ({ ...body, status: 403 }));
    return { ...result, response: { ...response, status: 403 } };
  },

  'header-form-ignored': () => async (request, next) => {
    if (request.headers.get('x-answers-api-key') === null) return next(request);
    return next(withoutHeader(request, 'x-answers-api-key'));
  },

  'permission-not-enforced': (mock) => async (request, next) => {
    const route = routeOf(request);
    if (!route) return next(request);
    const { apiKeys } = mock.state.store;
    const auth = authenticate(request.headers, apiKeys, route.operation.permission);
    if (auth.ok || problemCode(auth.response) !== 'insufficient_permission') return next(request);
    const presented = apiKeys.find((key) => key.key === auth.presentedKey);
    const key = presented && fullKeyOf(mock, presented.account_id);
    return next(key ? withKey(request, key) : request);
  },

  'list-order-wrong': () => async (request, next) =>
    rewriteWhen(await next(request), ['listCollections'], [200], (body) => ({
      ...body,
      data: objectsIn(body).sort((a, b) => {
        const [x, y] = [String(a.name), String(b.name)];
        return x < y ? 1 : x > y ? -1 : 0;
      }),
    })),

  'page-skips-item': () => async (request, next) =>
    rewriteWhen(await next(request), ['listCollections', 'listObjects'], [200], (body) =>
      body.has_more === true && Array.isArray(body.data)
        ? { ...body, data: body.data.slice(0, -1) }
        : body,
    ),

  'delete-not-cascading': (mock) => {
    const graveyard = new Map<string, Remains>();
    return async (request, next) => {
      const result = reviveObject(
        mock,
        graveyard,
        request,
        await forwardKeepingRemains(mock, graveyard, request, next),
      );
      if (operationIdOf(result) !== 'searchObjects' || result.response.status !== 200) {
        return result;
      }
      const search = requestJson(request);
      if (!isObject(search) || search.collection_ids !== undefined) return result;
      const query = queryTerms(words(String(search.query)));
      const leftovers = [...graveyard.values()]
        .filter((remains) => remains.accountId === result.accountId)
        .flatMap((remains) => [...remains.objects.values()])
        .filter(
          (object) =>
            !mock.state.store.hasId(object.id) && score(packTerms(object.content), query) > 0,
        );
      if (leftovers.length === 0) return result;
      // @note Ranked last (score 1 is below every real hit), so they go on the last page.
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
    };
  },

  'soft-delete': (mock) => {
    const graveyard = new Map<string, Remains>();
    return async (request, next) => {
      const result = reviveObject(
        mock,
        graveyard,
        request,
        await forwardKeepingRemains(mock, graveyard, request, next),
      );
      if (operationIdOf(result) !== 'getCollection' || result.response.status !== 404) {
        return result;
      }
      const remains = graveyard.get(routeOf(request)?.params.collection_id ?? '');
      if (!remains || remains.accountId !== result.accountId) return result;
      if (mock.state.store.hasId(String(remains.collection.id))) return result;
      return { ...result, response: json(200, remains.collection) };
    };
  },

  'system-fields-missing': () => async (request, next) => {
    const strip = ({ created_at: _created, version: _version, ...rest }: JsonObject) => rest;
    const result = await next(request);
    if (operationIdOf(result) === 'listObjects') {
      return rewriteWhen(result, ['listObjects'], [200], (body) => ({
        ...body,
        data: objectsIn(body).map(strip),
      }));
    }
    return rewriteWhen(result, ['getObject', 'createObject'], [200, 201], strip);
  },

  'counts-wrong': () => async (request, next) => {
    const bump = (collection: JsonObject) =>
      typeof collection.object_count === 'number' && collection.object_count > 0
        ? { ...collection, object_count: collection.object_count + 1 }
        : collection;
    const result = await next(request);
    if (operationIdOf(result) === 'listCollections') {
      return rewriteWhen(result, ['listCollections'], [200], (body) => ({
        ...body,
        data: objectsIn(body).map(bump),
      }));
    }
    return rewriteWhen(result, ['getCollection'], [200], bump);
  },

  'cross-account-leak': (mock) => async (request, next) => {
    const result = await next(request);
    if (operationIdOf(result) !== 'getCollection' || result.accountId === undefined) return result;
    if (problemCode(result.response) !== 'collection_not_found') return result;
    const id = routeOf(request)?.params.collection_id ?? '';
    for (const account of accountIds(mock)) {
      if (account === result.accountId || !mock.state.store.findCollection(account, id)) continue;
      const key = fullKeyOf(mock, account);
      if (!key) continue;
      const retried = await next(withKey(request, key));
      if (retried.response.status === 200) return { ...result, response: retried.response };
    }
    return result;
  },

  'search-ignores-query': (mock) => async (request, next) => {
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
    if (operationIdOf(result) !== 'searchObjects' || result.response.status !== 200) return result;
    const accountId = result.accountId!;
    const { store, cursors } = mock.state;
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

  'wrong-content-type': () => async (request, next) => {
    const result = await next(request);
    const { response } = result;
    if (response.status < 200 || response.status > 299) return result;
    const name = Object.keys(response.headers).find((h) => h.toLowerCase() === 'content-type');
    if (!name || !/^application\/json\b/i.test(response.headers[name] ?? '')) return result;
    return {
      ...result,
      response: { ...response, headers: { ...response.headers, [name]: 'text/plain' } },
    };
  },

  'schema-violation': () => async (request, next) => {
    const stringify = (collection: JsonObject) =>
      typeof collection.object_count === 'number'
        ? { ...collection, object_count: String(collection.object_count) }
        : collection;
    const result = await next(request);
    if (operationIdOf(result) === 'listCollections') {
      return rewriteWhen(result, ['listCollections'], [200], (body) => ({
        ...body,
        data: objectsIn(body).map(stringify),
      }));
    }
    return rewriteWhen(
      result,
      ['getCollection', 'createCollection', 'updateCollection'],
      [200, 201],
      stringify,
    );
  },

  'bearer-scheme-case-sensitive': () => async (request, next) => {
    const route = routeOf(request);
    const value = request.headers.get('authorization');
    if (!route || value === null || !/^bearer /i.test(value) || value.startsWith('Bearer ')) {
      return next(request);
    }
    const response = problem(
      'malformed_credentials',
      'The Authorization header must be "Bearer <API key>".',
      { headers: { 'www-authenticate': 'Bearer realm="answers", error="invalid_request"' } },
    );
    return { response, operation: route.operation };
  },

  'inactive-key-accepted': (mock) => async (request, next) => {
    const auth = authenticationOf(mock, request);
    if (!auth || auth.ok || problemCode(auth.response) !== 'inactive_api_key') return next(request);
    const { apiKeys } = mock.state.store;
    const inactive = apiKeys.find((key) => key.key === auth.presentedKey);
    // The same account and the same permissions: what the inactive key would have had.
    const twin =
      inactive &&
      apiKeys.find(
        (key) =>
          key.active &&
          key.account_id === inactive.account_id &&
          key.permissions.length === inactive.permissions.length &&
          inactive.permissions.every((permission) => key.permissions.includes(permission)),
      );
    return next(twin ? withKey(request, twin.key) : request);
  },

  'malformed-header-accepted': (mock) => async (request, next) => {
    const auth = authenticationOf(mock, request);
    const value = request.headers.get('authorization');
    if (!auth || auth.ok || value === null) return next(request);
    if (problemCode(auth.response) !== 'malformed_credentials') return next(request);
    const token = value.trim().split(/\s+/)[1];
    if (!token) return next(request);
    return next(withHeaders(request, { authorization: `Bearer ${token}` }));
  },

  'conflicting-keys-first-wins': (mock) => async (request, next) => {
    const auth = authenticationOf(mock, request);
    if (!auth || auth.ok || problemCode(auth.response) !== 'conflicting_api_keys') {
      return next(request);
    }
    return next(withoutHeader(request, 'x-answers-api-key'));
  },

  'no-challenge': () => async (request, next) => {
    const result = await next(request);
    if (result.response.status !== 401) return result;
    const headers = Object.fromEntries(
      Object.entries(result.response.headers).filter(
        ([name]) => name.toLowerCase() !== 'www-authenticate',
      ),
    );
    return { ...result, response: { ...result.response, headers } };
  },

  'summary-without-count': () => async (request, next) =>
    rewriteWhen(await next(request), ['listCollections'], [200], (body) => ({
      ...body,
      data: objectsIn(body).map(({ object_count: _count, ...rest }) => rest),
    })),

  'limit-clamped': () => async (request, next) => {
    const route = routeOf(request);
    const values = request.query.getAll('limit');
    const listing = ['listCollections', 'listObjects'].includes(route?.operation.operationId ?? '');
    if (!listing || values.length === 0) return next(request);
    const parsed = Number.parseInt(values[0]!, 10);
    const limit = Number.isNaN(parsed) ? 20 : Math.min(100, Math.max(1, parsed));
    if (values.length === 1 && values[0] === String(limit)) return next(request);
    return next(withQuery(request, (query) => query.set('limit', String(limit))));
  },

  'cursor-ignored': () => async (request, next) => {
    const result = await next(request);
    const listing = ['listCollections', 'listObjects'].includes(operationIdOf(result) ?? '');
    if (!listing || problemCode(result.response) !== 'invalid_cursor') return result;
    return next(withQuery(request, (query) => query.delete('cursor')));
  },

  'collection-lookup-off-by-one': (mock) => async (request, next) => {
    const result = await next(request);
    if (operationIdOf(result) !== 'getCollection' || result.response.status !== 200) return result;
    const { store } = mock.state;
    const mine = store.collectionsOf(result.accountId!);
    const id = routeOf(request)?.params.collection_id ?? '';
    const at = mine.findIndex((collection) => collection.id === id);
    if (at < 0) return result;
    const after = mine[at + 1];
    const response = after
      ? json(200, toCollection(after, store.objectCount(after.id)))
      : problem('collection_not_found', `No collection ${id} in this account.`);
    return { ...result, response };
  },

  'not-found-is-500': () => async (request, next) => {
    const result = await next(request);
    const code = problemCode(result.response);
    if (code !== 'collection_not_found' && code !== 'object_not_found') return result;
    return {
      ...result,
      response: problem('internal_error', 'The service failed to answer this request.'),
    };
  },

  'client-system-fields-accepted': () => {
    const documented: Record<string, readonly string[]> = {
      createCollection: ['name', 'metadata'],
      createObject: ['content'],
    };
    return async (request, next) => {
      const fields = documented[routeOf(request)?.operation.operationId ?? ''];
      const body = requestJson(request);
      if (!fields || !isObject(body)) return next(request);
      const kept = Object.fromEntries(Object.entries(body).filter(([k]) => fields.includes(k)));
      return next(withJsonBody(request, kept));
    };
  },

  'search-index-stale': (mock) => {
    const indexed = objectIdsNow(mock);
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

  'search-filter-ignored': () => async (request, next) => {
    const search = requestJson(request);
    if (routeOf(request)?.operation.operationId !== 'searchObjects' || !isObject(search)) {
      return next(request);
    }
    if (search.collection_ids === undefined) return next(request);
    const { collection_ids: _ignored, ...rest } = search;
    return next(withJsonBody(request, rest));
  },

  'search-cross-account': (mock) => async (request, next) => {
    const result = await next(request);
    if (operationIdOf(result) !== 'searchObjects' || result.response.status !== 200) return result;
    const page = parseBody(result.response.body);
    const search = requestJson(request);
    if (!isObject(page) || page.has_more === true || !isObject(search)) return result;
    const { cursor: _cursor, ...first } = search;
    const foreign: JsonObject[] = [];
    let extra = 0;
    for (const account of accountIds(mock)) {
      const key = account === result.accountId ? undefined : fullKeyOf(mock, account);
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

  'delete-twice-succeeds': () => {
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

  'method-not-allowed-404': () => async (request, next) => {
    const result = await next(request);
    if (result.response.status !== 405) return result;
    return {
      ...result,
      response: problem(
        'not_found',
        `No operation of the Answers API has the path ${request.path}.`,
      ),
    };
  },

  'malformed-json-500': () => async (request, next) => {
    const result = await next(request);
    if (problemCode(result.response) !== 'malformed_json') return result;
    return {
      ...result,
      response: problem('internal_error', 'The service failed to answer this request.'),
    };
  },

  'validation-before-auth': () => async (request, next) => {
    const result = await next(request);
    const route = routeOf(request);
    if (result.response.status !== 401 || !route) return result;
    const body = validateBody(route.operation, request);
    if (!body.ok) return { ...result, response: body.response };
    const input = validateParameters(route.operation, request, route.params);
    return input.ok ? result : { ...result, response: input.response };
  },

  'object-nested-content-dropped': () => async (request, next) =>
    rewriteWhen(await next(request), ['getObject'], [200], (object) => ({
      ...object,
      content: Object.fromEntries(
        Object.entries(isObject(object.content) ? object.content : {}).filter(
          ([, value]) => typeof value !== 'object' || value === null,
        ),
      ),
    })),

  'error-body-not-problem': () => async (request, next) => {
    const result = await next(request);
    const { response } = result;
    const name = Object.keys(response.headers).find((h) => h.toLowerCase() === 'content-type');
    if (!name || !/^application\/problem\+json\b/i.test(response.headers[name] ?? '')) {
      return result;
    }
    const problemBody = parseBody(response.body);
    const detail = isObject(problemBody) ? problemBody.detail : undefined;
    return {
      ...result,
      response: {
        ...response,
        headers: { ...response.headers, [name]: 'application/json' },
        body: JSON.stringify({ error: typeof detail === 'string' ? detail : 'error' }),
      },
    };
  },
};

/**
 * A mock that answers like `mock` except for exactly one deliberate defect, `fault` (see
 * {@link FAULTS}). It shares `mock`'s controls and state; `mock` itself stays correct.
 */
export function withFault(mock: AnswersMock, fault: FaultName): AnswersMock {
  if (!Object.hasOwn(FAULTS, fault)) {
    throw new RangeError(
      `Unknown fault "${String(fault)}"; one of ${Object.keys(FAULTS).join(', ')}`,
    );
  }
  const wrapper = FAULT_WRAPPERS[fault](mock);
  const next: Next = (request) => mock.handleDetailed(request);
  const handleDetailed = (request: MockRequest) => wrapper(request, next);
  const faulty: AnswersMock = {
    handle: async (request) => (await serve(faulty, request)).response,
    handleDetailed,
    controls: mock.controls,
    state: mock.state,
  };
  return faulty;
}
