import { http, HttpResponse, type HttpHandler } from 'msw';
import type { AnswersMock } from '../core/create-mock.ts';
import { MAX_BODY_BYTES, type MockRequest, type MockResponse } from '../core/http.ts';
import { API_PREFIXES } from '../core/router.ts';

/** Options of {@link createHandlers}. */
export interface HandlerOptions {
  /**
   * Only requests to this origin (e.g. `https://answers.example.com`) are answered. Default: any
   * origin, for every path under `/api/answers/v1`, `/api/answers` or `/v1`.
   */
  baseUrl?: string | undefined;
}

function isApiPath(path: string): boolean {
  return API_PREFIXES.some((prefix) => path.startsWith(`${prefix}/`));
}

/** Converts a Fetch API request (what msw hands a resolver) into the core's request value. */
export async function toMockRequest(request: Request): Promise<MockRequest> {
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
export function toFetchResponse(response: MockResponse): Response {
  return new HttpResponse(response.body ?? null, {
    status: response.status,
    headers: response.headers,
  });
}

/**
 * The msw request handlers of the Answers API: one handler that hands every request under an API
 * prefix to the mock's core. The same handlers serve `setupServer` (Node) and `setupWorker`
 * (browser); requests to other paths fall through to your other handlers.
 */
export function createHandlers(mock: AnswersMock, options: HandlerOptions = {}): HttpHandler[] {
  const origin = options.baseUrl ? new URL(options.baseUrl).origin : undefined;
  return [
    http.all('*', async ({ request }) => {
      const url = new URL(request.url);
      if ((origin && url.origin !== origin) || !isApiPath(url.pathname)) return undefined;
      return toFetchResponse(await mock.handle(await toMockRequest(request)));
    }),
  ];
}
