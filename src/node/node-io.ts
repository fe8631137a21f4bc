/** Translation between Node's `http` messages and the core's request and response values. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  MAX_BODY_BYTES,
  type HeaderBag,
  type MockRequest,
  type MockResponse,
} from '../core/http.ts';
import { headerValue } from './raw-headers.ts';

/** A request body as read by {@link readBody}. */
interface RequestBody {
  body?: Uint8Array | undefined;
  bodyTooLarge?: boolean | undefined;
}

const NO_BODY: RequestBody = Object.freeze({});

/**
 * Reads a request body of at most `limit` bytes. Past the limit it stops keeping bytes, lets the
 * rest of the upload drain (so the client gets its 413 and the connection stays usable; the
 * server's `requestTimeout` bounds an endless upload) and resolves with `bodyTooLarge`.
 * @see docs/spec-gaps.md GAP-LIMIT-SIZE
 */
function readBody(req: IncomingMessage, limit = MAX_BODY_BYTES): Promise<RequestBody> {
  // @note A body parser mounted before the express router has consumed the stream already.
  if (req.readableEnded) return Promise.resolve(NO_BODY);
  // @note No body announced (the usual GET): nothing to read; Node discards the empty stream.
  const length = headerValue(req.rawHeaders, 'content-length');
  if (
    (length === undefined || length === '0') &&
    headerValue(req.rawHeaders, 'transfer-encoding') === undefined
  ) {
    return Promise.resolve(NO_BODY);
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const stop = () => {
      req.off('data', onData).off('end', onEnd).off('error', onError);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) {
        chunks.push(chunk);
        return;
      }
      stop();
      req.resume();
      resolve({ bodyTooLarge: true });
    };
    const onEnd = () => {
      stop();
      resolve(size === 0 ? {} : { body: new Uint8Array(Buffer.concat(chunks, size)) });
    };
    const onError = (error: Error) => {
      stop();
      reject(error);
    };
    req.on('data', onData).on('end', onEnd).on('error', onError);
  });
}

/** Splits a request target into path (still percent-encoded) and query, without URL parsing. */
function splitTarget(url: string): { path: string; query: URLSearchParams } {
  // @note `new URL('//x/y', base)` would read `x` as a host; an absolute-form target is a proxy's.
  const target = /^https?:\/\//i.test(url) ? url.replace(/^https?:\/\/[^/?#]*/i, '') : url;
  const mark = target.indexOf('?');
  const path = (mark === -1 ? target : target.slice(0, mark)) || '/';
  return { path, query: new URLSearchParams(mark === -1 ? '' : target.slice(mark + 1)) };
}

/** Reads a Node request (plain `node:http` or express) into the core's {@link MockRequest}. */
export async function readMockRequest(
  req: IncomingMessage,
  limitFor: (path: string) => number = () => MAX_BODY_BYTES,
  url = req.url ?? '/',
): Promise<MockRequest> {
  const { path, query } = splitTarget(url);
  const { body, bodyTooLarge } = await readBody(req, limitFor(path));
  return { method: req.method ?? 'GET', path, query, headers: headersOf(req), body, bodyTooLarge };
}

/**
 * The request's headers for the core, read from Node's own parse.
 * @note Every value, from the raw list: `req.headers` keeps only the first of a repeated
 * Authorization (and a few others), and the core must see every value to refuse conflicting
 * credentials. Repeated headers are joined as RFC 9110 §5.3 allows.
 */
function headersOf(req: IncomingMessage): HeaderBag {
  const raw = req.rawHeaders;
  return { get: (name) => headerValue(raw, name.toLowerCase()) ?? null };
}

/**
 * How long a response may wait for its client to take more of it, in ms, before it is abandoned:
 * between two pieces taken, not for the whole body (a slow reader that keeps reading is served).
 */
export const DEFAULT_WRITE_TIMEOUT_MS = 30_000;

/**
 * A string body longer than this (UTF-16 code units) is written in pieces of this size.
 * @note Node turns a string into bytes in a buffer sized for the worst case, three bytes per
 * code unit, and keeps that buffer until the client has taken all of it: a page of large
 * objects written whole pinned buffers three times its size for as long as a client did not read
 * (docs/robustness.md). In pieces, what waits for the client is one piece.
 */
const PIECE_CHARS = 64 * 1024;

/** How a response ended: written, abandoned (the client took nothing for too long), or cut off. */
export type Delivery = 'written' | 'abandoned' | 'disconnected';

/** `text` in slices of at most `size` code units, never splitting a surrogate pair. */
export function* slices(text: string, size = PIECE_CHARS): Generator<string> {
  for (let start = 0; start < text.length;) {
    let end = Math.min(start + size, text.length);
    const last = text.charCodeAt(end - 1);
    // @note A high surrogate at the end of a slice would be encoded alone, as U+FFFD.
    if (end < text.length && end - start > 1 && last >= 0xd800 && last <= 0xdbff) end -= 1;
    yield text.slice(start, end);
    start = end;
  }
}

/**
 * Resolves once `res` emits `event` ('written'), closes ('disconnected'), or `timeoutMs` pass
 * first: then the response is abandoned and its socket destroyed, which frees what it held.
 */
function awaitClient(
  res: ServerResponse,
  event: 'drain' | 'finish',
  timeoutMs: number,
): Promise<Delivery> {
  return new Promise((resolve) => {
    const settle = (delivery: Delivery) => {
      clearTimeout(timer);
      res.off(event, onEvent).off('close', onClose);
      resolve(delivery);
    };
    const onEvent = () => settle('written');
    const onClose = () => settle('disconnected');
    const timer = setTimeout(() => {
      settle('abandoned');
      res.destroy();
    }, timeoutMs);
    res.on(event, onEvent).on('close', onClose);
  });
}

/**
 * Ends `res` (with a last `chunk`) and says how it went once the client has taken it all, in time
 * or not (no timer is set when the OS took every byte at once, the usual case).
 */
export function endResponse(
  res: ServerResponse,
  chunk: string | Uint8Array | undefined,
  timeoutMs = DEFAULT_WRITE_TIMEOUT_MS,
): Promise<Delivery> {
  res.end(chunk);
  if (res.destroyed) return Promise.resolve('disconnected');
  if (res.writableFinished || res.writableLength === 0) return Promise.resolve('written');
  return awaitClient(res, 'finish', timeoutMs);
}

/**
 * Writes `pieces` one by one, each once the client has taken the ones before (backpressure). A
 * client that hangs up ends them at once (`return`), even while they wait for their next piece:
 * a stream that ends only with its reader (`GET /__mock/requests/stream`) lets go of it then.
 */
async function writePieces(
  res: ServerResponse,
  pieces: Iterable<string> | AsyncIterable<string>,
  timeoutMs: number,
): Promise<Delivery> {
  const iterator =
    Symbol.asyncIterator in pieces ? pieces[Symbol.asyncIterator]() : pieces[Symbol.iterator]();
  let hungUp = () => {};
  const gone = new Promise<'gone'>((resolve) => {
    hungUp = () => {
      void iterator.return?.();
      resolve('gone');
    };
  });
  res.once('close', hungUp);
  try {
    for (;;) {
      const next = await Promise.race([iterator.next(), gone]);
      if (next === 'gone') return 'disconnected';
      if (next.done) break;
      if (res.destroyed) {
        await iterator.return?.();
        return 'disconnected';
      }
      if (res.write(next.value)) continue;
      const delivery = await awaitClient(res, 'drain', timeoutMs);
      if (delivery !== 'written') {
        await iterator.return?.();
        return delivery;
      }
    }
  } finally {
    res.off('close', hungUp);
  }
  if (res.destroyed) return 'disconnected';
  return endResponse(res, undefined, timeoutMs);
}

/**
 * Writes a core response to a Node (or express) response, adding `extraHeaders`. A body is
 * written in pieces when it is large or streamed; whenever the client takes no more of it for
 * `writeTimeoutMs`, the response is abandoned and the connection closed (a client that never
 * reads would otherwise hold the body in memory until it disconnects). Never rejects: a failure
 * while streaming (after the status was sent) is logged and the connection closed. Says how the
 * response ended.
 */
export function sendResponse(
  res: ServerResponse,
  response: MockResponse,
  extraHeaders: Record<string, string> = {},
  writeTimeoutMs = DEFAULT_WRITE_TIMEOUT_MS,
): Promise<Delivery> {
  const { body, pieces } = response;
  if (pieces === undefined && (body === undefined || body.length <= PIECE_CHARS)) {
    // @note Framed by length, not chunked, so that head and body leave in one piece.
    const fields = headerFields(extraHeaders, response.headers);
    if (body !== undefined) fields.push('content-length', String(Buffer.byteLength(body)));
    res.writeHead(response.status, fields);
    return endResponse(res, body, writeTimeoutMs);
  }
  const headers = { ...extraHeaders, ...response.headers };
  // @note The length is known for a string, so the body is not sent chunked.
  if (body !== undefined) headers['content-length'] = String(Buffer.byteLength(body));
  res.writeHead(response.status, headers);
  return writePieces(res, pieces ?? slices(body!), writeTimeoutMs).catch((error: unknown) => {
    logInternalError(error);
    res.destroy();
    return 'disconnected' as const;
  });
}

/**
 * `extra` and then `own` header fields (`own` wins a name both have) as the flat list of names
 * and values `writeHead` takes.
 * @note Not `{ ...extra, ...own }`: merging two objects by spread was the costliest step of an
 * answer, measured in-process (docs/performance.md); a list costs a fraction of it.
 */
function headerFields(extra: Record<string, string>, own: Record<string, string>): string[] {
  const fields: string[] = [];
  for (const name in extra) if (!Object.hasOwn(own, name)) fields.push(name, extra[name]!);
  for (const name in own) fields.push(name, own[name]!);
  return fields;
}

/** Logs a 500's cause on stderr: for the developer, never for the client. */
export function logInternalError(error: unknown): void {
  console.error(error instanceof Error ? (error.stack ?? error.message) : error);
}
