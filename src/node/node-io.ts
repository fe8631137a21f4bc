/** Translation between Node's `http` messages and the core's request and response values. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  MAX_BODY_BYTES,
  type HeaderBag,
  type MockRequest,
  type MockResponse,
} from '../core/http.ts';

/** A request body as read by {@link readBody}. */
interface RequestBody {
  body?: Uint8Array | undefined;
  bodyTooLarge?: boolean | undefined;
}

/**
 * Reads a request body of at most `limit` bytes. Past the limit it stops keeping bytes, lets the
 * rest of the upload drain (so the client gets its 413 and the connection stays usable; the
 * server's `requestTimeout` bounds an endless upload) and resolves with `bodyTooLarge`.
 * @see docs/spec-gaps.md GAP-LIMIT-SIZE
 */
function readBody(req: IncomingMessage, limit = MAX_BODY_BYTES): Promise<RequestBody> {
  // @note A body parser mounted before the express router has consumed the stream already.
  if (req.readableEnded) return Promise.resolve({});
  // @note No body announced (the usual GET): nothing to wait for; Node discards the empty stream.
  const length = req.headers['content-length'];
  if ((length === undefined || length === '0') && req.headers['transfer-encoding'] === undefined) {
    return Promise.resolve({});
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
  const target = splitTarget(url);
  const { body, bodyTooLarge } = await readBody(req, limitFor(target.path));
  return {
    method: req.method ?? 'GET',
    ...target,
    headers: headersOf(req),
    body,
    bodyTooLarge,
  };
}

/**
 * The request's headers for the core, read from Node's own parse.
 * @note `headersDistinct`, not `headers`: Node keeps only the first of a repeated Authorization
 * (and a few others), and the core must see every value to refuse conflicting credentials.
 * Repeated headers are joined as RFC 9110 §5.3 allows.
 */
function headersOf(req: IncomingMessage): HeaderBag {
  return {
    get(name) {
      const values = req.headersDistinct[name];
      return values ? values.join(', ') : null;
    },
  };
}

/** Writes a core response to a Node (or express) response, adding `extraHeaders`. */
export function sendResponse(
  res: ServerResponse,
  response: MockResponse,
  extraHeaders: Record<string, string> = {},
): void {
  res.writeHead(response.status, { ...extraHeaders, ...response.headers });
  res.end(response.body);
}

/** Logs a 500's cause on stderr: for the developer, never for the client. */
export function logInternalError(error: unknown): void {
  console.error(error instanceof Error ? (error.stack ?? error.message) : error);
}
