/** `answers-mock-kit/browser`: the mock in the browser (msw `setupWorker`). */
import { setupWorker, type SetupWorker } from 'msw/browser';
import type { AnswersMock, MockOptions } from '../core/mock.ts';
import { createMock } from '../create-mock.ts';
import { createHandlers, type AnswersHandlers, type HandlerOptions } from '../msw/handlers.ts';

export * from '../index.ts';

/**
 * Creates a mock and an msw worker that serves it: `await worker.start()` once (after
 * `npx msw init <public dir>`), `mock.controls.reset()` between tests.
 */
export async function setupAnswersWorker(
  options: MockOptions & HandlerOptions = {},
): Promise<{ mock: AnswersMock; worker: SetupWorker; handlers: AnswersHandlers }> {
  const mock = await createMock(options);
  const handlers = createHandlers(mock, options);
  return { mock, worker: setupWorker(...handlers), handlers };
}
