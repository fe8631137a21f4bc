import { afterAll, afterEach, beforeAll } from 'vitest';
import { setupAnswersServer } from 'answers-mock-kit/node';

export const { mock, server, handlers } = await setupAnswersServer({
  now: '2026-01-01T00:00:00.000Z', // a frozen clock: timestamps never change between runs
  baseUrl: 'https://answers.example.com', // where your code sends its API requests
});
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(async () => {
  server.resetHandlers(); // drops what a test added with server.use
  await mock.controls.reset(); // back to the initial data: no test depends on another
});
afterAll(() => server.close());
