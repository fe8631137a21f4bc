import { afterAll, afterEach, beforeAll } from 'vitest';
import { setupAnswersServer } from '../../src/node/index.ts';

/**
 * One msw server for a test file, with a frozen clock; `reset()` after each test returns the mock
 * to the default seed, so no test depends on another.
 */
export async function useMswMock() {
  const { mock, server } = await setupAnswersServer({
    now: '2026-11-22T12:00:00.000Z',
    // The origin test/support/api.ts addresses: it can never reach a network.
    baseUrl: 'http://answers.test',
  });
  beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
  afterEach(() => mock.controls.reset());
  afterAll(() => server.close());
  return mock;
}
