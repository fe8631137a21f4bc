import { API_PREFIXES } from '../openapi/operations.ts';
import { CONTROL_PREFIX, handleControl } from './control-routes.ts';
import type { HandledRequest } from './http.ts';
import { MAX_BODY_BYTES, type MockRequest } from './http.ts';
import type { AnswersMock } from './mock.ts';
import { problem } from './problem.ts';

/** Options of {@link serve} and {@link isMockPath}. */
export interface ServeOptions {
  /** Serves the control API under `/__mock`. Default false (the API alone). */
  control?: boolean | undefined;
  /**
   * The largest body `PUT /__mock/state` accepts, in bytes: an exported snapshot grows with the
   * data (about 300 bytes per object), so it has a limit of its own. Default 256 MiB.
   */
  maxStateBytes?: number | undefined;
  /**
   * A secret every control request must carry in `X-Answers-Mock-Token`: set when the mock
   * listens beyond loopback, where other machines can reach it.
   */
  controlToken?: string | undefined;
  /**
   * Whether a host name was given to the adapter by name (see `allowed-hosts.ts`): only then is a
   * control request whose `Origin` equals its `Host` one of the mock's own pages. Default: loopback
   * names only.
   */
  namedHost?: ((hostname: string) => boolean) | undefined;
}

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

/**
 * Answers one request end to end: the control API (when enabled), else the API. The one safety
 * net of the kit: it never throws; a bug becomes a 500 problem, with the error returned as
 * `internal` for the adapter's log (never sent to the client, which may not see internals).
 * Every adapter (Node server, express router, msw handlers) only translates to and from this.
 */
export function serve(
  mock: AnswersMock,
  request: MockRequest,
  options: ServeOptions = {},
): Promise<HandledRequest> {
  try {
    if (options.control === true && isControlPath(request.path)) {
      const limit = bodyLimit(request.path, options);
      return handleControl(mock, request, limit, options.controlToken, options.namedHost).then(
        (response) => ({ response }),
        failed,
      );
    }
    return mock.handleDetailed(request).catch(failed);
  } catch (error) {
    return Promise.resolve(failed(error));
  }
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
