import { authenticate } from './authenticate.ts';
import { forcedError, preferredStatus } from './forced-errors.ts';
import type { HandledRequest, MockRequest, MockResponse } from './http.ts';
import type { MockState } from './store/mock-state.ts';
import { HANDLERS } from './operations/index.ts';
import { problem } from './problem.ts';
import { validateBody, validateParameters } from './request-validation.ts';
import { readKey, type ReadCache } from './read-cache.ts';
import { matchRoute } from './router.ts';

/** What a mock keeps beside its state and consults on every request; see `createMock`. */
export interface RequestHooks {
  /** Answers of repeated reads of unchanged data (`read-cache.ts`). */
  readonly reads: ReadCache<HandledRequest>;
  /** A queued forced status for the operation, consumed when returned. */
  takeFailure(operationId: string): number | undefined;
  /** Whether any forced status waits, for any operation (then no answer comes from a cache). */
  failuresQueued(): boolean;
}

/**
 * Answers one API request. The order of checks is fixed: route (404/405), authentication and
 * permission (401), forced errors, body and parameters (413/415/400), then the operation.
 * A refused request changes nothing. A bug throws; `serve` turns that into a 500.
 * @note Synchronous, as every operation: a request is one step, which no other request can
 * interleave with (docs/decisions/one-way-to-answer.md).
 * @see docs/spec-gaps.md GAP-ORDER-CHECK
 */
export function handleRequest(
  state: MockState,
  hooks: RequestHooks,
  request: MockRequest,
): HandledRequest {
  // @note A repeated read of unchanged data gets the answer computed the first time, after the
  // same checks it passed then (read-cache.ts); a queued failure must be taken, so none then.
  const key = hooks.failuresQueued() ? undefined : readKey(request);
  if (key !== undefined) {
    const kept = hooks.reads.get(state, key);
    if (kept !== undefined) return kept;
  }
  const handled = answer(state, hooks, request);
  if (key !== undefined) hooks.reads.keep(state, key, handled);
  return handled;
}

/** {@link handleRequest} without the cache of reads. */
function answer(state: MockState, hooks: RequestHooks, request: MockRequest): HandledRequest {
  const match = matchRoute(request.path);
  if (!match) {
    return {
      response: problem(
        'not_found',
        `No operation of the Answers API has the path ${request.path}.`,
      ),
    };
  }
  const operation =
    match.operations.get(request.method) ?? match.operations.get(request.method.toUpperCase());
  if (!operation) {
    const method = request.method.toUpperCase();
    const allow = [...match.operations.keys()].join(', ');
    return {
      response: problem('method_not_allowed', `${method} is not supported here; use ${allow}.`, {
        headers: { allow },
      }),
    };
  }

  const auth = authenticate(request.headers, state.store.apiKeys, operation.permission);
  if (!auth.ok) return { response: auth.response, operation, presentedKey: auth.presentedKey };
  const accountId = auth.apiKey.account_id;
  const routed = (response: MockResponse): HandledRequest => ({
    response,
    operation,
    accountId,
    presentedKey: auth.apiKey.key,
  });

  const preferred = preferredStatus(request.headers);
  if (preferred !== undefined && preferred >= 300) {
    const how = `Prefer: code=${preferred}`;
    return { ...routed(forcedError(operation, preferred, how)), forced: how };
  }
  const queued = hooks.takeFailure(operation.operationId);
  if (queued !== undefined)
    return {
      ...routed(forcedError(operation, queued, 'a queued failure')),
      forced: 'a queued failure',
    };

  const body = validateBody(operation, request);
  if (!body.ok) return routed(body.response);
  const input = validateParameters(operation, request, match.params);
  if (!input.ok) return routed(input.response);

  const answer = HANDLERS[operation.operationId]({
    state,
    accountId,
    params: input.params,
    query: input.query,
    body: body.body,
    prefix: match.prefix,
  });
  return routed(answer);
}
