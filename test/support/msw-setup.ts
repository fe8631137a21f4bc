import { setupServer, type SetupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll } from 'vitest';
import type { AnswersMock } from '../../src/core/mock.ts';
import { assemble } from '../../src/assemble.ts';
import { createHandlers } from '../../src/msw/handlers.ts';
import { setupAnswersServer } from '../../src/node/index.ts';

const OPTIONS = {
  now: '2026-11-22T12:00:00.000Z',
  // The origin test/support/api.ts addresses: it can never reach a network.
  baseUrl: 'http://answers.test',
};

/** Listens for the test file, and returns the mock to the default seed after each test. */
function useServer(mock: AnswersMock, server: SetupServer): void {
  beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
  afterEach(() => mock.controls.reset());
  afterAll(() => server.close());
}

/**
 * One msw server for a test file, with a frozen clock; `reset()` after each test returns the mock
 * to the default seed, so no test depends on another.
 */
export async function useMswMock() {
  const { mock, server } = await setupAnswersServer(OPTIONS);
  useServer(mock, server);
  return mock;
}

/**
 * {@link useMswMock}, with the state behind the mock beside it, for a test that looks at the
 * store itself: the mock is assembled here, as `setupAnswersServer` would make it.
 */
export async function useMswAssembly() {
  const { mock, state } = await assemble(OPTIONS);
  useServer(mock, setupServer(...createHandlers(mock, OPTIONS)));
  return { mock, state };
}
