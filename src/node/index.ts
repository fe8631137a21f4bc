/** `answers-mock-kit/node`: the mock in Node tests (msw `setupServer`). */
import { setupServer, type SetupServer } from 'msw/node';
import type { AnswersMock, MockOptions } from '../core/mock.ts';
import { createMock } from '../create-mock.ts';
import { createHandlers, type AnswersHandlers, type HandlerOptions } from '../msw/handlers.ts';

export * from '../index.ts';
export {
  createServer,
  startServer,
  type RunningServer,
  type ServerOptions,
  type StartOptions,
} from './server.ts';
export { startExploreModel, type StartedExploreModel } from './explore-model.ts';

/**
 * Creates a mock and an msw server that serves it: call `server.listen()` in your test setup,
 * `mock.controls.reset()` between tests, `server.close()` at the end. `handlers` are the
 * server's initial handlers, one per operation (`handlers.searchObjects`), and
 * `server.use(handlers.leaveOut('searchObjects'))` leaves an operation out until
 * `server.resetHandlers()`.
 */
export async function setupAnswersServer(
  options: MockOptions & HandlerOptions = {},
): Promise<{ mock: AnswersMock; server: SetupServer; handlers: AnswersHandlers }> {
  const mock = await createMock(options);
  const handlers = createHandlers(mock, options);
  return { mock, server: setupServer(...handlers), handlers };
}
