import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { MockRequest } from '../core/http.ts';
import type { AnswersMock } from '../core/mock.ts';
import type { HandledRequest } from '../core/http.ts';
import { hostRule, namedBy } from '../core/allowed-hosts.ts';
import { bodyLimit, failed, isControlPath } from '../core/serve.ts';
import { CORS, corsFor, PREFLIGHT } from './cors.ts';
import { createDocsSite, isDocsPath } from './docs-site.ts';
import { createInspectorSite, isInspectorPath } from './inspector-site.ts';
import { hostCheck } from './host-check.ts';
import { headerValue } from './raw-headers.ts';
import {
  DEFAULT_WRITE_TIMEOUT_MS,
  endResponse,
  logInternalError,
  readMockRequest,
  sendResponse,
  type Delivery,
} from './node-io.ts';
import { notKept } from './not-kept.ts';
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
  /**
   * Host names answered besides loopback names and the listen address. `*` answers any name on
   * the API; the control API then answers a name not given by name only with `controlToken` set.
   */
  allowedHosts?: readonly string[] | undefined;
  /** The address the server listens on, which is an allowed host name too. */
  listenHost?: string | undefined;
  /** A secret control requests must carry in `X-Answers-Mock-Token` (set beyond loopback). */
  controlToken?: string | undefined;
  /**
   * How long a response waits for its client to take more of it, in ms, before it is abandoned
   * and the connection closed. Counted from each piece the client takes, and only while a
   * response is being written (a delay set with `--latency` is not waiting on the client).
   * Default 30,000.
   */
  writeTimeoutMs?: number | undefined;
}

/** Somewhere a server's changes are kept, such as the state file's journal. */
export interface Persistence {
  /** Why changes can no longer be kept, once they cannot. */
  readonly failure: Error | undefined;
  /** Resolves once every change made so far is kept; rejects if it cannot be. */
  commit(): Promise<void>;
}

/** Hands over how a response ended, for the log (a promise when the client has yet to take it). */
type Sent = (delivery: Promise<Delivery>) => void;

/** The answer to a write that could not be kept (the change may be held in memory only). */
const notSaved = (error: Error) =>
  notKept('The state file', error, 'the mock accepts no more writes; fix the cause and restart it');

/** Reads a request's Origin when asked (see `corsFor`). */
const originOf = (req: IncomingMessage) => () => headerValue(req.rawHeaders, 'origin');

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
  const hosts = hostRule([options.listenHost, ...(options.allowedHosts ?? [])]);
  const limits = {
    control,
    maxStateBytes: options.maxStateBytes,
    controlToken: options.controlToken,
    namedHost: namedBy(hosts),
  };
  const checkHost = hostCheck(hosts, {
    isControl: (req) => control && isControlPath((req.url ?? '/').split('?', 1)[0]!),
    controlToken: options.controlToken !== undefined,
    allow: (name) => `start it with --allowed-hosts ${name}`,
  });
  const log = options.quiet ? undefined : (options.logger ?? console.log);
  const docs = createDocsSite();
  const inspector = createInspectorSite();

  const writeTimeoutMs = options.writeTimeoutMs ?? DEFAULT_WRITE_TIMEOUT_MS;

  /** Writes the core's answer and says what the log line needs. */
  const deliver = (
    req: IncomingMessage,
    res: ServerResponse,
    sent: Sent,
    path: string,
    served: HandledRequest,
    response = served.response,
  ): Outcome => {
    sent(sendResponse(res, response, corsFor(path, originOf(req), CORS), writeTimeoutMs));
    if (served.internal !== undefined) logInternalError(served.internal);
    return {
      status: response.status,
      operationId: served.operation?.operationId,
      presentedKey: served.presentedKey,
    };
  };

  /** Answers a request read whole: the docs, the redirect to them, else the core. */
  const route = (
    req: IncomingMessage,
    res: ServerResponse,
    sent: Sent,
    request: MockRequest,
  ): Promise<Outcome> => {
    const head = request.method === 'HEAD';
    if (control && isInspectorPath(request.path))
      return Promise.resolve(
        deliver(req, res, sent, request.path, { response: inspector(request, limits.namedHost) }),
      );
    if ((request.method === 'GET' || head) && isDocsPath(request.path)) {
      return docs(request.path).then((file) => {
        // @note A path under /docs the site has no file for is the core's to answer (a 404).
        if (!file) return answerFromCore(req, res, sent, request);
        res.writeHead(200, { ...CORS, 'content-type': file.contentType });
        sent(endResponse(res, head ? undefined : file.body, writeTimeoutMs));
        return { status: 200 };
      });
    }
    if (request.method === 'GET' && request.path === '/') {
      res.writeHead(302, { ...CORS, location: '/docs' }).end();
      return Promise.resolve({ status: 302 });
    }
    const { persistence } = options;
    if (persistence !== undefined && request.method !== 'GET' && !head) {
      if (persistence.failure) {
        const response = notSaved(persistence.failure);
        return Promise.resolve(deliver(req, res, sent, request.path, { response }));
      }
      // @note Acknowledged only once kept: a `kill -9` after the answer loses nothing answered.
      return mock.handle(request, limits).then((served) =>
        persistence.commit().then(
          () => deliver(req, res, sent, request.path, served),
          (error: Error) => deliver(req, res, sent, request.path, served, notSaved(error)),
        ),
      );
    }
    return answerFromCore(req, res, sent, request);
  };

  /** The core's answer, written. */
  const answerFromCore = (
    req: IncomingMessage,
    res: ServerResponse,
    sent: Sent,
    request: MockRequest,
  ): Promise<Outcome> =>
    mock.handle(request, limits).then((served) => deliver(req, res, sent, request.path, served));

  /** Answers one request; returns what the log line needs. */
  const answer = async (
    req: IncomingMessage,
    res: ServerResponse,
    sent: Sent,
  ): Promise<Outcome> => {
    const refused = checkHost(req);
    if (refused) {
      sent(sendResponse(res, refused, {}, writeTimeoutMs));
      return { status: refused.status };
    }
    if (req.method === 'OPTIONS') {
      const target = (req.url ?? '/').split('?', 1)[0]!;
      res.writeHead(204, corsFor(target, originOf(req), PREFLIGHT)).end();
      return { status: 204 };
    }
    return route(req, res, sent, await readMockRequest(req, (path) => bodyLimit(path, limits)));
  };

  const onRequest = (req: IncomingMessage, res: ServerResponse): void => {
    const started = log === undefined ? 0 : performance.now();
    // @note Read now: a destroyed socket no longer knows its peer.
    const client = log === undefined ? undefined : req.socket.remoteAddress;
    let outcome: Outcome = { status: 0 };
    const line = () =>
      logLine(
        client,
        req.method,
        (req.url ?? '/').split('?', 1)[0],
        outcome,
        performance.now() - started,
      );
    // @note The answer is logged once handed over, not once the client has read it; a response
    // the client does not take in time gets a second line.
    const sent: Sent = (delivery) => {
      if (log === undefined) return;
      void delivery.then((how) => {
        if (how === 'abandoned')
          log(`${line()} abandoned: the client took nothing for ${writeTimeoutMs} ms`);
      });
    };
    const done = (answered: Outcome) => {
      outcome = answered;
      log?.(line());
    };
    const fail = (error: unknown) => {
      // @note Only transport failures land here (reading the body or a docs file): `handle` never
      // throws. A client that hangs up mid-body is not a bug of the mock: nothing to answer.
      if (req.socket.destroyed) return;
      logInternalError(error);
      if (res.headersSent) res.end();
      else sent(sendResponse(res, failed(error).response, CORS, writeTimeoutMs));
      done({ status: 500 });
    };
    answer(req, res, sent).then(done, fail);
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
    onRequest,
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
