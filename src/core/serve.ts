import { API_PREFIXES } from '../openapi/operations.ts';
import { CONTROL_PREFIX, handleControl, type ControlledMock } from './control-routes.ts';
import type { HandledRequest } from './http.ts';
import { MAX_BODY_BYTES, type MockRequest, type ServeOptions } from './http.ts';

export type { ServeOptions } from './http.ts';
import { problem } from './problem.ts';

/** The default of {@link ServeOptions.maxStateBytes}. */
const DEFAULT_MAX_STATE_BYTES = 256 * 1024 * 1024;

/**
 * How many body bytes an adapter reads for a request to `path` before it stops and marks the
 * request `bodyTooLarge`: the state upload's own limit, else the API's 1 MiB.
 * @see docs/spec-gaps.md GAP-LIMIT-SIZE
 */
export function bodyLimit(path: string, options: ServeOptions = {}): number {
  return options.control === true && path === `${CONTROL_PREFIX}/state`
    ? (options.maxStateBytes ?? DEFAULT_MAX_STATE_BYTES)
    : MAX_BODY_BYTES;
}

/** Whether `path` is under the control API's prefix, `/__mock`. */
export function isControlPath(path: string): boolean {
  return path === CONTROL_PREFIX || path.startsWith(`${CONTROL_PREFIX}/`);
}

/**
 * Whether a request is the mock's to answer: a path under one of the API prefixes of
 * `openapi.yaml` (the core answers an unknown one with its 404 `not_found`, a wrong method with
 * 405), or of the control API when it is served. The msw handlers and the express router pass
 * every other request on to whatever else the app or test has; the Node server, which owns its
 * port, answers them with the same 404.
 */
export function isMockPath(path: string, options: ServeOptions = {}): boolean {
  return (
    (options.control === true && isControlPath(path)) ||
    API_PREFIXES.some((prefix) => path.startsWith(`${prefix}/`))
  );
}

/** One request's answer and where it was routed: what a mock's `handle` gives. */
export type Handle = (request: MockRequest, options?: ServeOptions) => Promise<HandledRequest>;

/** The API's answer to one request, with no safety net: a bug rejects. */
export type ApiAnswer = (request: MockRequest) => Promise<HandledRequest>;

/**
 * A mock's one entry, `handle`, from what answers the API and what the control API drives: the
 * control API (when enabled), else the API. The one safety net of the kit: it never throws; a
 * bug becomes a 500 problem, with the error returned as `internal` for the adapter's log (never
 * sent to the client, which may not see internals). Every adapter (Node server, express router,
 * msw handlers) only translates to and from a mock's `handle`.
 */
export function entry(api: ApiAnswer, controlled: ControlledMock): Handle {
  return (request, options = {}) => {
    try {
      if (options.control === true && isControlPath(request.path)) {
        const limit = bodyLimit(request.path, options);
        return handleControl(
          controlled,
          request,
          limit,
          options.controlToken,
          options.namedHost,
        ).then((response) => ({ response }), failed);
      }
      return api(request).catch(failed);
    } catch (error) {
      return Promise.resolve(failed(error));
    }
  };
}

/**
 * The 500 for a request that could not be answered: a generic problem for the client, the error
 * itself as `internal` for the log. Also used by the Node server when reading a request fails.
 */
export function failed(error: unknown): HandledRequest {
  return {
    response: problem('internal_error', 'The mock failed to answer this request.'),
    internal: error,
  };
}
