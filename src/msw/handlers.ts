import { http, HttpResponse, type HttpHandler } from 'msw';
import { hostRefusal, hostRule, namedBy } from '../core/allowed-hosts.ts';
import type { MockRequest, MockResponse } from '../core/http.ts';
import type { AnswersMock } from '../core/mock.ts';
import { matchRoute } from '../core/router.ts';
import { bodyLimit, isControlPath, isMockPath, type ServeOptions } from '../core/serve.ts';
import { OPERATIONS, type OperationId } from '../openapi/operations.ts';
import { claimsAnyOrigin, hostsOf, parseBaseUrls, pathBelow } from './base-urls.ts';

/** Options of {@link createHandlers}. */
export interface HandlerOptions {
  /**
   * Where the API is: the base URL(s) the API prefixes (`/api/answers/v1`, `/api/answers`, `/v1`)
   * and `/__mock` follow, e.g. `https://answers.example.com`. Only requests under them are
   * claimed; everything else falls through to your other handlers and msw's `onUnhandledRequest`.
   * `'*'` claims the API's paths on any origin. Default: loopback origins (localhost, 127.0.0.1,
   * [::1], any port) and, in a browser, the page's own origin.
   */
  baseUrl?: string | readonly string[] | undefined;
  /**
   * Serves the control API under `/__mock` (reset, state, clock, failures) as the Node server and
   * the express router do, so a test in the browser can drive it with `fetch` too. Default true.
   */
  control?: boolean | undefined;
  /** The largest body `PUT /__mock/state` accepts, in bytes. Default 256 MiB. */
  maxStateBytes?: number | undefined;
  /**
   * Host names (of the request URL) answered besides loopback names, the hosts of `baseUrl` and,
   * in a browser, the page's own; a claimed request to any other gets 403 `forbidden_host`.
   * `'*'` answers any name on the API, never on the control API. Default: none, or `['*']` when
   * `baseUrl` is `'*'`. It matters where the handlers serve requests from other pages
   * (`@mswjs/http-middleware`, whose request URL carries the `Host` a DNS-rebinding page sent);
   * in `setupServer` and `setupWorker` every request is the app's own.
   */
  allowedHosts?: readonly string[] | undefined;
}

/**
 * The msw handlers of a mock: an array to spread into `setupServer(...)` / `setupWorker(...)`,
 * whose members are also reachable by name, one per operation of `openapi.yaml`
 * (`handlers.getCollection`, for `server.use(...)` and `server.listHandlers()`).
 */
export type AnswersHandlers = HttpHandler[] &
  Readonly<Record<OperationId, HttpHandler>> & {
    /** Answers a path under an API prefix that no operation has (404) or a wrong method (405). */
    readonly unknownRoute: HttpHandler;
    /** The control API under `/__mock`; undefined with `control: false`. */
    readonly control: HttpHandler | undefined;
    /**
     * A handler for `server.use(...)` that leaves these operations out: their requests reach
     * your other handlers and then msw's `onUnhandledRequest` (`onUnhandledFrame` in msw 3), as
     * if the kit had no handler for them. `server.resetHandlers()` puts them back, like any
     * handler added with `server.use`.
     */
    leaveOut(...operationIds: [OperationId, ...OperationId[]]): HttpHandler;
  };

/** Converts a Fetch API request (what msw hands a resolver) into the core's request value. */
async function toMockRequest(request: Request, path: string, limit: number): Promise<MockRequest> {
  const bytes = request.body ? new Uint8Array(await request.arrayBuffer()) : undefined;
  return {
    method: request.method,
    path,
    query: new URL(request.url).searchParams,
    headers: request.headers,
    body: bytes,
    bodyTooLarge: bytes !== undefined && bytes.byteLength > limit,
  };
}

/** A body written in pieces as a byte stream, each piece made when the reader asks for it. */
function byteStream(pieces: AsyncIterable<string>): ReadableStream<Uint8Array> {
  const iterator = pieces[Symbol.asyncIterator]();
  const encoder = new TextEncoder();
  return new ReadableStream({
    async pull(controller) {
      const next = await iterator.next();
      if (next.done) controller.close();
      else controller.enqueue(encoder.encode(next.value));
    },
    async cancel() {
      await iterator.return?.();
    },
  });
}

/** Converts the core's response value into a Fetch API response. */
function toFetchResponse(response: MockResponse): Response {
  const body = response.pieces ? byteStream(response.pieces) : (response.body ?? null);
  return new HttpResponse(body, { status: response.status, headers: response.headers });
}

/**
 * The msw request handlers of the Answers API, for `setupServer` (Node) and `setupWorker`
 * (browser) alike. Each only decides whether a request is its own; answering is the core's
 * (`serve`), exactly as for the Node server and the express router.
 */
export function createHandlers(mock: AnswersMock, options: HandlerOptions = {}): AnswersHandlers {
  const bases = parseBaseUrls(options.baseUrl);
  const hosts = hostRule([
    ...hostsOf(bases),
    ...(options.allowedHosts ?? (claimsAnyOrigin(bases) ? ['*'] : [])),
  ]);
  const serveOptions: ServeOptions = {
    control: options.control ?? true,
    maxStateBytes: options.maxStateBytes,
    namedHost: namedBy(hosts),
  };
  /**
   * The requests a `leaveOut` handler saw, by msw's request id: the kit's own handler then answers
   * nothing for them. A resolver that returns nothing hands the request to the next handler, and
   * a request no handler answered is unhandled (msw's documented fall-through, in 2 and 3).
   */
  const leftOut = new Set<string>();
  /** A handler for the requests `claims` accepts (given the path below the base URL). */
  const handler = (claims: (path: string, method: string) => boolean) =>
    http.all(
      ({ request }) => {
        const path = pathBelow(bases, new URL(request.url));
        return path !== undefined && claims(path, request.method.toUpperCase());
      },
      async ({ request, requestId }) => {
        if (leftOut.delete(requestId)) return undefined;
        const url = new URL(request.url);
        const path = pathBelow(bases, url)!;
        const refused = hostRefusal(hosts, url.hostname, {
          isControl: () => serveOptions.control === true && isControlPath(path),
          controlToken: false,
          allow: (name) => `add '${name}' to the handlers' allowedHosts`,
        });
        if (refused) return toFetchResponse(refused);
        const mockRequest = await toMockRequest(request, path, bodyLimit(path, serveOptions));
        const { response } = await mock.handle(mockRequest, serveOptions);
        return toFetchResponse(response);
      },
    );
  const operationAt = (path: string, method: string) =>
    matchRoute(path)?.operations.get(method)?.operationId;

  const named = {} as Record<OperationId, HttpHandler>;
  for (const id of OPERATIONS.keys()) {
    named[id as OperationId] = handler((path, method) => operationAt(path, method) === id);
  }
  const unknownRoute = handler(
    (path, method) => isMockPath(path) && operationAt(path, method) === undefined,
  );
  const control = serveOptions.control
    ? handler((path) => isMockPath(path, serveOptions) && !isMockPath(path))
    : undefined;
  const list = [...Object.values(named), unknownRoute, ...(control ? [control] : [])];
  const leaveOut = (...ids: OperationId[]) =>
    http.all(
      ({ request }) => {
        const path = pathBelow(bases, new URL(request.url));
        const id = path === undefined ? undefined : operationAt(path, request.method.toUpperCase());
        return id !== undefined && ids.includes(id);
      },
      ({ requestId }) => {
        leftOut.add(requestId);
        return undefined;
      },
    );
  return Object.assign(list, named, { unknownRoute, control, leaveOut });
}
