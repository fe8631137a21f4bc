/** `answers-mock-kit`: create a mock and its msw handlers. Works in Node and in browsers. */
import type { Snapshot } from './core/snapshot/snapshot.ts';
import { SnapshotError, SnapshotLimitError, type StateLimit } from './core/snapshot/snapshot.ts';

export { createMock, type MockRecordOptions, type RecordingAnswersMock } from './create-mock.ts';
export type {
  KeyRole,
  RecordedExchange,
  RecordedSequence,
  Recording,
} from './openapi/recording.ts';
export type {
  AnswersMock,
  InitialState,
  JournalEntry,
  JournalFilter,
  MockControls,
  MockOptions,
} from './core/mock.ts';
export type { HandledRequest, MockRequest, MockResponse, ServeOptions } from './core/http.ts';
export { SnapshotError, SnapshotLimitError, type Snapshot, type StateLimit };
export { createHandlers, type AnswersHandlers, type HandlerOptions } from './msw/handlers.ts';
export { defaultState } from './seed/default-state.ts';
export { emptyState } from './seed/empty-state.ts';
export { createFactories, type Factories, type FactoryOptions } from './seed/factories.ts';
export {
  MockDbError,
  type MockDb,
  type NewRecord,
  type RecordQuery,
  type RecordTable,
} from './core/record-table.ts';
export type { CollectionRecord, ObjectRecord } from './core/store/records.ts';
export { DEV_KEYS, DEV_ACCOUNTS } from './seed/dev-keys.ts';
export { validateResponse, type ObservedResponse } from './openapi/response-validation.ts';
export type { components, paths, operations } from './generated/openapi.ts';

/** @deprecated Renamed {@link Snapshot} (the exported state); this alias goes in the next minor. */
export type StoreState = Snapshot;
/** @deprecated Renamed {@link SnapshotError}; this alias goes in the next minor. */
export const StateError = SnapshotError;
/** @deprecated Renamed {@link SnapshotError}; this alias goes in the next minor. */
export type StateError = SnapshotError;
