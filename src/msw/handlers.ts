import { http, HttpResponse, type HttpHandler } from 'msw';
import { MAX_BODY_BYTES, type MockRequest, type MockResponse } from '../core/http.ts';
import type { AnswersMock } from '../core/mock.ts';
import { isMockPath, serve } from '../core/serve.ts';

/** Options of {@link createHandlers}. */
export interface HandlerOptions {
  /**
   * Only requests to this origin (e.g. `https://answers.example.com`) are answered. Default: any
   * origin, for every path of the API under `/api/answers/v1`, `/api/answers` or `/v1`.
   */
  baseUrl?: string | undefined;
  /**
   * Serves the control API under `/__mock` (reset, state, clock, latency, failures), as the Node
   * server and the express router do, so a test in the browser can drive it with `fetch` too.
   * Default true.
   */
  control?: boolean | undefined;
}

/** Converts a Fetch API request (what msw hands a resolver) into the core's request value. */
async function toMockRequest(request: Request): Promise<MockRequest> {
  const url = new URL(request.url);
  const bytes = request.body ? new Uint8Array(await request.arrayBuffer()) : undefined;
  return {
    method: request.method,
    path: url.pathname,
    query: url.searchParams,
    headers: request.headers,
    body: bytes,
    bodyTooLarge: bytes !== undefined && bytes.byteLength > MAX_BODY_BYTES,
  };
}

/** Converts the core's response value into a Fetch API response. */
function toFetchResponse(response: MockResponse): Response {
  return new HttpResponse(response.body ?? null, {
    status: response.status,
    headers: response.headers,
  });
}

/**
 * The msw request handlers of the Answers API: one handler that hands every request the mock
 * owns (see `isMockPath`) to the core. The same handlers serve `setupServer` (Node) and
 * `setupWorker` (browser); other requests fall through to your other handlers.
 */
export function createHandlers(mock: AnswersMock, options: HandlerOptions = {}): HttpHandler[] {
  const origin = options.baseUrl ? new URL(options.baseUrl).origin : undefined;
  const control = options.control ?? true;
  return [
    http.all('*', async ({ request }) => {
      const url = new URL(request.url);
      if ((origin && url.origin !== origin) || !isMockPath(url.pathname, { control })) {
        return undefined;
      }
      const { response } = await serve(mock, await toMockRequest(request), { control });
      return toFetchResponse(response);
    }),
  ];
}
