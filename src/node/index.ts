/** `answers-mock-kit/node`: the mock in Node tests (msw `setupServer`). */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { setupServer, type SetupServer } from 'msw/node';
import type { AnswersMock, MockOptions } from '../core/mock.ts';
import { recordingMock } from '../core/recorder.ts';
import { assemble } from '../assemble.ts';
import type { Recording } from '../openapi/recording.ts';
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

export type {
  KeyRole,
  RecordedExchange,
  RecordedSequence,
  Recording,
} from '../openapi/recording.ts';

/** Where and how `setupAnswersServer` records the exchanges a test file's tests have. */
export interface RecordOptions {
  /** The file `recording.write()` writes (its folder is made when missing). */
  path: string;
  /**
   * The running test's name, which names its sequence: in vitest,
   * `() => expect.getState().currentTestName`. Default: every exchange in one sequence, `unnamed`.
   */
  testName?: (() => string | undefined) | undefined;
}

/** The exchanges recorded so far, and a way to write them to the file `record.path` names. */
export interface AnswersRecording {
  current(): Recording;
  /** Writes the recording so far to `record.path` (synchronously: safe in `afterAll`). */
  write(): void;
}

/**
 * Creates a mock and an msw server that serves it: call `server.listen()` in your test setup,
 * `mock.controls.reset()` between tests, `server.close()` at the end. `handlers` are the
 * server's initial handlers, one per operation (`handlers.searchObjects`), and
 * `server.use(handlers.leaveOut('searchObjects'))` leaves an operation out until
 * `server.resetHandlers()`. With `record`, the mock records every API exchange (keys by role,
 * never by value) as a sequence per test, which `recording.write()` writes.
 */
export async function setupAnswersServer(
  options: MockOptions & HandlerOptions & { record?: RecordOptions | undefined } = {},
): Promise<{
  mock: AnswersMock;
  server: SetupServer;
  handlers: AnswersHandlers;
  recording: AnswersRecording | undefined;
}> {
  const { mock, state } = await assemble(options);
  const { record } = options;
  const recorder =
    record === undefined
      ? undefined
      : recordingMock(
          mock,
          () => state.store.apiKeys,
          record.testName ?? (() => undefined),
          () => [state.store, state.store.version],
        );
  const handlers = createHandlers(recorder?.mock ?? mock, options);
  const recording =
    recorder && record
      ? {
          current: recorder.recording,
          write: () => {
            mkdirSync(dirname(record.path), { recursive: true });
            writeFileSync(record.path, `${JSON.stringify(recorder.recording(), null, 2)}\n`);
          },
        }
      : undefined;
  return { mock: recorder?.mock ?? mock, server: setupServer(...handlers), handlers, recording };
}
