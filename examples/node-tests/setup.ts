import { afterAll, afterEach, beforeAll } from 'vitest';
import { setupAnswersServer } from 'answers-mock-kit/node';

/**
 * One mock for the whole test run. The clock is frozen, so timestamps in snapshots never change;
 * `reset()` after each test returns to the seed, so no test depends on another.
 */
export const { mock, server } = await setupAnswersServer({
  now: '2026-01-01T00:00:00.000Z',
  // The URL the app under test calls; requests to any other origin stay unhandled (an error here).
  baseUrl: 'https://answers.example.com',
});

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(async () => {
  server.resetHandlers(); // drops what a test added with server.use
  await mock.controls.reset();
});
afterAll(() => server.close());
