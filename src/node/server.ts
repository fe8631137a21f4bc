import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { AnswersMock } from '../core/mock.ts';
import { problem, problemResponse } from '../core/problem.ts';
import { bodyLimit, failed, serve } from '../core/serve.ts';
import { CORS, corsFor, PREFLIGHT } from './cors.ts';
import { createDocsSite } from './docs-site.ts';
import { hostCheck } from './host-check.ts';
import { logInternalError, readMockRequest, sendResponse } from './node-io.ts';
import { logLine, type Outcome } from './request-log.ts';

/** Options of {@link createServer}. */
export interface ServerOptions {
  /** Serves the control API under `/__mock`. Default true. */
  control?: boolean | undefined;
  /** The largest body `PUT /__mock/state` accepts, in bytes. Default 256 MiB. */
  maxStateBytes?: number | undefined;
  /** Receives one line per request. Default `console.log`. */
  logger?: ((line: string) => void) | undefined;
  /** Logs no request lines. 500s still log their cause on stderr. */
  quiet?: boolean | undefined;
  /**
   * Where changes are kept (the CLI's `--state-file`): a write is answered only once `commit()`
   * resolved, and refused with a 507 once the store has failed.
   */
  persistence?: Persistence | undefined;
  /** Host names answered besides loopback names and the listen address; `*` answers any. */
  allowedHosts?: readonly string[] | undefined;
  /** The address the server listens on, which is an allowed host name too. */
  listenHost?: string | undefined;
  /** A secret control requests must carry in `X-Answers-Mock-Token` (set beyond loopback). */
  controlToken?: string | undefined;
}

/** Somewhere a server's changes are kept, such as the state file's journal. */
export interface Persistence {
  /** Why changes can no longer be kept, once they cannot. */
  readonly failure: Error | undefined;
  /** Resolves once every change made so far is kept; rejects if it cannot be. */
  commit(): Promise<void>;
}

/** The answer to a write that could not be kept (the change may be held in memory only). */
function notKept(error: Error) {
  return problem(
    'insufficient_storage',
    `The state file cannot be written (${error.message}), so the mock accepts no more writes; fix the cause and restart it.`,
  );
}

/** Options of {@link startServer}. */
export interface StartOptions extends ServerOptions {
  mock: AnswersMock;
  /** Default `127.0.0.1`: the mock is for this machine only. */
  host?: string | undefined;
  /** Default 4010; 0 picks a free port. */
  port?: number | undefined;
}

/** A listening server. */
export interface RunningServer {
  /** The bound address, e.g. `http://127.0.0.1:4010`, with the real port when 0 was asked. */
  url: string;
  server: http.Server;
  /** Stops listening and closes every connection, idle keep-alive ones included. */
  close(): Promise<void>;
}

/**
 * Creates a bare `node:http` server for a mock: CORS, the API reference at `/docs`, the control
 * API at `/__mock`, and everything else straight to the core. No framework sits on the hot path.
 */
export function createServer(mock: AnswersMock, options: ServerOptions = {}): http.Server {
  const control = options.control ?? true;
  const limits = {
    control,
    maxStateBytes: options.maxStateBytes,
    controlToken: options.controlToken,
  };
  const checkHost = hostCheck(options.listenHost, options.allowedHosts ?? []);
  const log = options.quiet ? undefined : (options.logger ?? console.log);
  const docs = createDocsSite();

  /** Answers one request; returns what the log line needs. */
  const answer = async (req: IncomingMessage, res: ServerResponse): Promise<Outcome> => {
    const target = (req.url ?? '/').split('?', 1)[0]!;
    const refused = checkHost(req);
    if (refused) {
      const kind =
        refused.status === 400
          ? { code: 'invalid_parameter', title: 'Invalid Host', status: 400 }
          : { code: 'forbidden_host', title: 'Host not allowed', status: 403 };
      sendResponse(res, problemResponse(kind, refused.detail));
      return { status: refused.status };
    }
    if (req.method === 'OPTIONS') {
      res.writeHead(204, corsFor(target, req.headers.origin, PREFLIGHT)).end();
      return { status: 204 };
    }
    const request = await readMockRequest(req, (path) => bodyLimit(path, limits));
    const head = request.method === 'HEAD';
    const file = request.method === 'GET' || head ? await docs(request.path) : undefined;
    if (file) {
      res.writeHead(200, { ...CORS, 'content-type': file.contentType });
      res.end(head ? undefined : file.body);
      return { status: 200 };
    }
    if (request.method === 'GET' && request.path === '/') {
      res.writeHead(302, { ...CORS, location: '/docs' }).end();
      return { status: 302 };
    }
    const { persistence } = options;
    const writes = persistence !== undefined && request.method !== 'GET' && !head;
    if (writes && persistence.failure) {
      sendResponse(
        res,
        notKept(persistence.failure),
        corsFor(request.path, req.headers.origin, CORS),
      );
      return { status: 507 };
    }
    const served = await serve(mock, request, limits);
    const { operation, presentedKey, internal } = served;
    // @note Acknowledged only once kept: a `kill -9` after the answer loses nothing answered.
    const response = writes
      ? await persistence.commit().then(() => served.response, notKept)
      : served.response;
    sendResponse(res, response, corsFor(request.path, req.headers.origin, CORS));
    if (internal !== undefined) logInternalError(internal);
    return { status: response.status, operationId: operation?.operationId, presentedKey };
  };

  const onRequest = async (req: IncomingMessage, res: ServerResponse) => {
    const started = performance.now();
    const path = (req.url ?? '/').split('?', 1)[0];
    let outcome: Outcome;
    try {
      outcome = await answer(req, res);
    } catch (error) {
      // @note Only transport failures land here (reading the body or a docs file): `serve` never
      // throws. A client that hangs up mid-body is not a bug of the mock: nothing to answer.
      if (req.socket.destroyed) return;
      const { response } = failed(error);
      logInternalError(error);
      if (res.headersSent) res.end();
      else sendResponse(res, response, CORS);
      outcome = { status: 500 };
    }
    log?.(
      logLine(req.socket.remoteAddress, req.method, path, outcome, performance.now() - started),
    );
  };

  const server = http.createServer(
    {
      requestTimeout: 10_000,
      headersTimeout: 5_000,
      maxHeaderSize: 16_384,
      // @note Node enforces the two timeouts above only when it checks its connections, every
      // 30 s by default: a stalled client would be kept up to 30 s, not 5 or 10.
      connectionsCheckingInterval: 1_000,
    },
    (req, res) => void onRequest(req, res),
  );
  server.keepAliveTimeout = 5_000;
  return server;
}

/** Starts a server for `mock` and resolves once it listens. */
export async function startServer(options: StartOptions): Promise<RunningServer> {
  const { mock, host = '127.0.0.1', port = 4010 } = options;
  const server = createServer(mock, { listenHost: host, ...options });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const hostname = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${hostname}:${address.port}`,
    server,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}
