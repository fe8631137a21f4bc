/**
 * What the fault families share: the shape of a fault and plain reads and rewrites of requests
 * and responses, so that each fault's code says only what it breaks.
 */
import type { MockState } from '../core/store/mock-state.ts';
import type { HandledRequest } from '../core/http.ts';
import type { MockRequest, MockResponse } from '../core/http.ts';
import { matchRoute } from '../core/router.ts';
import type { OperationSpec, Permission } from '../openapi/operations.ts';

export type JsonObject = Record<string, unknown>;
export type Next = (request: MockRequest) => Promise<HandledRequest>;
/** One fault at work: rewrites the request before and/or the response after the core answers. */
type Wrapper = (request: MockRequest, next: Next) => Promise<HandledRequest>;

/**
 * One deliberate defect: what a buggy real implementation would do, observable over HTTP, with
 * the clauses of `docs/spec-gaps.md` it violates (so a suite can be judged by whether a check
 * citing one of them fails).
 */
export interface Fault {
  description: string;
  clauses: readonly string[];
  /**
   * Called once per mock made with the fault, with the mock's state (for what the fault must
   * look up), so that whatever a fault keeps is per mock.
   */
  wrap: (state: MockState) => Wrapper;
}

const ALL_PERMISSIONS: readonly Permission[] = ['read', 'write', 'search'];

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The operation and path parameters a request routes to, if any. */
export function routeOf(
  request: MockRequest,
): { operation: OperationSpec; params: Record<string, string> } | undefined {
  const match = matchRoute(request.path);
  const operation = match?.operations.get(request.method.toUpperCase());
  return match && operation ? { operation, params: match.params } : undefined;
}

export function operationIdOf(result: HandledRequest): string | undefined {
  return result.operation?.operationId;
}

export function parseBody(body: string | undefined): unknown {
  if (body === undefined || body === '') return undefined;
  try {
    return JSON.parse(body) as unknown;
  } catch {
    return undefined;
  }
}

export function requestJson(request: MockRequest): unknown {
  if (!request.body || request.bodyTooLarge) return undefined;
  return parseBody(new TextDecoder().decode(request.body));
}

/** The problem `code` of an error response, if it is one. */
export function problemCode(response: MockResponse): string | undefined {
  const value = parseBody(response.body);
  return isObject(value) && typeof value.code === 'string' ? value.code : undefined;
}

/** The response with its JSON body replaced by `change(body)`; every header is kept. */
export function rewriteJson(
  response: MockResponse,
  change: (body: JsonObject) => unknown,
): MockResponse {
  const value = parseBody(response.body);
  if (!isObject(value)) return response;
  return { ...response, body: JSON.stringify(change(value)) };
}

/** Applies `change` to the response of `result` when its operation and status match. */
export function rewriteWhen(
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

/**
 * Applies `change` to each representation `result` answers: to each item of a 200 page of `list`,
 * and to the whole body of the `operationIds` answering one of `statuses`.
 */
export function rewriteEachWhen(
  result: HandledRequest,
  list: string,
  operationIds: readonly string[],
  statuses: readonly number[],
  change: (representation: JsonObject) => unknown,
): HandledRequest {
  if (operationIdOf(result) !== list) return rewriteWhen(result, operationIds, statuses, change);
  return rewriteWhen(result, [list], [200], (page) => ({
    ...page,
    data: objectsIn(page).map(change),
  }));
}

/** The request with some headers replaced (a string) or removed (null); the rest unchanged. */
export function withHeaders(
  request: MockRequest,
  changes: Record<string, string | null>,
): MockRequest {
  const base = request.headers;
  return {
    ...request,
    headers: { get: (name) => (Object.hasOwn(changes, name) ? changes[name]! : base.get(name)) },
  };
}

/** The request sent with `key` as its only credential. */
export function withKey(request: MockRequest, key: string): MockRequest {
  return withHeaders(request, { 'x-answers-api-key': null, authorization: `Bearer ${key}` });
}

/** The request with its JSON body replaced by `body`. */
export function withJsonBody(request: MockRequest, body: unknown): MockRequest {
  return { ...request, body: new TextEncoder().encode(JSON.stringify(body)) };
}

/** The request with its query string changed by `change`. */
export function withQuery(
  request: MockRequest,
  change: (query: URLSearchParams) => void,
): MockRequest {
  const query = new URLSearchParams(request.query);
  change(query);
  return { ...request, query };
}

/** The first active key of the account that has every permission. */
export function fullKeyOf(state: MockState, accountId: string): string | undefined {
  return state.store.apiKeys.find(
    (key) =>
      key.account_id === accountId &&
      key.active &&
      ALL_PERMISSIONS.every((permission) => key.permissions.includes(permission)),
  )?.key;
}

/** Every account id the mock knows, from its accounts and its keys. */
export function accountIds(state: MockState): string[] {
  const { store } = state;
  return [
    ...new Set([...store.accounts.map((a) => a.id), ...store.apiKeys.map((k) => k.account_id)]),
  ];
}

export function objectsIn(body: JsonObject): JsonObject[] {
  return Array.isArray(body.data) ? body.data.filter(isObject) : [];
}
