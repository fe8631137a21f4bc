/** `answers-mock-kit/node`: the mock in Node tests (msw `setupServer`). */
import { setupServer, type SetupServer } from 'msw/node';
import type { AnswersMock, MockOptions } from '../core/mock.ts';
import { createMock } from '../create-mock.ts';
import { createHandlers, type HandlerOptions } from '../msw/handlers.ts';

export * from '../index.ts';
export {
  createServer,
  startServer,
  type RunningServer,
  type ServerOptions,
  type StartOptions,
} from './server.ts';

/**
 * Creates a mock and an msw server that serves it: call `server.listen()` in your test setup,
 * `mock.controls.reset()` between tests, `server.close()` at the end.
 */
export async function setupAnswersServer(
  options: MockOptions & HandlerOptions = {},
): Promise<{ mock: AnswersMock; server: SetupServer }> {
  const mock = await createMock(options);
  return { mock, server: setupServer(...createHandlers(mock, options)) };
}
