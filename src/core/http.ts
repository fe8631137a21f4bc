import type { OperationSpec } from '../openapi/operations.ts';
/**
 * The request headers, as far as the core reads them. A WHATWG `Headers` is one (msw hands those
 * over); the Node server passes a thin view over Node's own parsed headers instead, because
 * building a `Headers` validates every header of every request.
 */
export interface HeaderBag {
  /** The value of a header (lower-case name), repeated headers joined with ", ", or null. */
  get(name: string): string | null;
}

/**
 * A request as the core sees it: plain values only, so that msw handlers, the Node server and the
 * express router can all build one without the core knowing which of them it came from.
 * `URLSearchParams` is a WHATWG global in Node and in browsers alike.
 */
export interface MockRequest {
  method: string;
  /** The path as received (percent-encoded), without query string, e.g. `/api/answers/v1/collections`. */
  path: string;
  query: URLSearchParams;
  headers: HeaderBag;
  /** The raw body bytes, if any. Adapters stop reading past the size limit and set `bodyTooLarge`. */
  body?: Uint8Array | undefined;
  /** Set by an adapter that stopped reading because the body passed {@link MAX_BODY_BYTES}. */
  bodyTooLarge?: boolean | undefined;
}

/** A response as the core produces it. `body` is already serialised, so adapters only copy bytes. */
export interface MockResponse {
  status: number;
  headers: Record<string, string>;
  body?: string | undefined;
  /**
   * A body too large to build as one string (the control API's state export), as pieces of JSON
   * to write in order, each once the client has taken the previous ones; set instead of `body`.
   * Iterable once. @see streamed
   */
  pieces?: AsyncIterable<string> | undefined;
}

/**
 * The largest request body accepted, in bytes.
 * @see docs/spec-gaps.md GAP-LIMIT-SIZE
 */
export const MAX_BODY_BYTES = 1_048_576;

export { MAX_JSON_DEPTH } from './limits.ts';

/**
 * Response headers: `content-type`, then `headers`.
 * @note Copied name by name, not spread after a literal (`{ 'content-type': t, ...headers }`):
 * that spread is a slow path of V8's, and it ran on every answer (a tenth of a 401's CPU).
 */
export function withContentType(
  contentType: string,
  headers?: Record<string, string>,
): Record<string, string> {
  const all: Record<string, string> = { 'content-type': contentType };
  if (headers) for (const name in headers) all[name] = headers[name]!;
  return all;
}

/** Builds a JSON success response. */
export function json(
  status: number,
  value: unknown,
  headers?: Record<string, string>,
): MockResponse {
  return {
    status,
    headers: withContentType('application/json', headers),
    body: JSON.stringify(value),
  };
}

/** Builds a response without a body (204). */
export function noContent(): MockResponse {
  return { status: 204, headers: {} };
}

/** Builds a JSON success response written in pieces (see {@link MockResponse.pieces}). */
export function streamed(status: number, pieces: AsyncIterable<string>): MockResponse {
  return { status, headers: { 'content-type': 'application/json' }, pieces };
}

/** Options of a mock's `handle` and of {@link isMockPath}: what an adapter serves. */
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

/** Where a request was routed, for logs and for tests. */
export interface HandledRequest {
  response: MockResponse;
  operation?: OperationSpec | undefined;
  accountId?: string | undefined;
  /** The API key the request presented, when it carried a well-formed one: for the log to mask. */
  presentedKey?: string | undefined;
  /** What a 500 was caused by, for the adapter's log; never sent to the client. */
  internal?: unknown;
  /** How a test forced this answer (`Prefer: code=429`, a queued failure), when it did. */
  forced?: string | undefined;
}
