import { assemble } from './assemble.ts';
import { recordingMock } from './core/recorder.ts';
import type { AnswersMock, MockOptions } from './core/mock.ts';
import type { Recording } from './openapi/recording.ts';

/** What `createMock({ record })` records by: the name of the sequence an exchange belongs to. */
export interface MockRecordOptions {
  /** The running test's name (in vitest `() => expect.getState().currentTestName`); default `unnamed`. */
  testName?: (() => string | undefined) | undefined;
}

/** A mock that records what it answers (`createMock({ record })`). */
export interface RecordingAnswersMock extends AnswersMock {
  /** Every API exchange answered so far, a sequence per test name, keys by role (a copy). */
  recording(): Recording;
}

/**
 * Creates a mock of the Answers API: one function from request to response, and its controls.
 * Without `initialState` it starts from the default seed (`fixtures/default-state.json`). With
 * `record`, it records every API exchange it answers, as `answers-contract replay` reads them.
 */
export async function createMock(
  options: MockOptions & { record: MockRecordOptions },
): Promise<RecordingAnswersMock>;
export async function createMock(options?: MockOptions): Promise<AnswersMock>;
export async function createMock(
  options: MockOptions & { record?: MockRecordOptions | undefined } = {},
): Promise<AnswersMock | RecordingAnswersMock> {
  const { mock, state } = await assemble(options);
  if (!options.record) return mock;
  const recorder = recordingMock(
    mock,
    () => state.store.apiKeys,
    options.record.testName ?? (() => undefined),
    () => [state.store, state.store.version],
  );
  return { ...recorder.mock, recording: recorder.recording };
}
