import { basename, join } from 'node:path';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { setupAnswersServer } from 'answers-mock-kit/node';

// With ANSWERS_RECORDINGS=<folder>, each test file's exchanges are recorded to <folder>/<file>.json
// for `answers-contract replay` (keys by role, never by value; a sequence per test).
const file = basename(expect.getState().testPath ?? 'tests');
const folder = process.env.ANSWERS_RECORDINGS;

export const { mock, server, handlers, recording } = await setupAnswersServer({
  now: '2026-01-01T00:00:00.000Z', // a frozen clock: timestamps never change between runs
  baseUrl: 'https://answers.example.com', // where your code sends its API requests
  record: folder
    ? {
        path: join(folder, `${file}.json`),
        testName: () => `${file} > ${expect.getState().currentTestName}`,
      }
    : undefined,
});
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(async () => {
  server.resetHandlers(); // drops what a test added with server.use
  await mock.controls.reset(); // back to the initial data: no test depends on another
});
afterAll(() => {
  server.close();
  recording?.write();
});
