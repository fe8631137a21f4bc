import type { ServerResponse } from 'node:http';
import { handleControl } from '../core/control-routes.ts';
import type { AnswersMock } from '../core/create-mock.ts';
import type { HandledRequest } from '../core/handle-request.ts';
import type { MockRequest, MockResponse } from '../core/http.ts';
import { problem } from '../core/problem.ts';

/**
 * Answers a request with the control API (when enabled) or else the mock. Never throws: an
 * error becomes a 500 problem, and the error itself is returned as `internal` for the log.
 */
export async function answer(
  mock: AnswersMock,
  request: MockRequest,
  control: boolean,
): Promise<HandledRequest> {
  try {
    const response = control ? await handleControl(mock, request) : undefined;
    return response ? { response } : await mock.handleDetailed(request);
  } catch (error) {
    return {
      response: problem('internal_error', 'The mock failed to answer this request.'),
      internal: error,
    };
  }
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
