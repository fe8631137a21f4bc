import type { HandledRequest } from './http.ts';
import type { MockRequest, ServeOptions } from './http.ts';
import type { MockDb } from './record-table.ts';
import type { Snapshot } from './snapshot/snapshot.ts';
import type { OperationId } from '../openapi/operations.ts';

/** The data a mock starts from and returns to on `reset`: a snapshot, or a function making one. */
export type InitialState = Snapshot | (() => Snapshot);

/** Options of `createMock`. */
export interface MockOptions {
  /**
   * The data to start from, and to return to on `reset`. Default: the default seed
   * (`fixtures/default-state.json`); `emptyState()` gives the dev keys and no data. A function is
   * called again on every `reset`, so no copy of a large state is kept around for it.
   */
  initialState?: InitialState | undefined;
  /** Seeds the id sequence and the cursor secret. Default 1. */
  seed?: number | undefined;
  /** Freezes the clock at this instant (RFC 3339 or ms) for deterministic timestamps. */
  now?: string | number | undefined;
  /** Delay before each API response, in ms. Default 0. */
  latencyMs?: number | undefined;
  /** The most objects API writes may bring the mock to (507 past it). Default 2,000,000. */
  maxObjects?: number | undefined;
  /** The most stored JSON (content, names, metadata) API writes may bring it to. Default 1 GiB. */
  maxStoredBytes?: number | undefined;
  /**
   * The most distinct search words the objects' content may hold after API writes (507 past it).
   * Default 8,000,000, half of V8's cap on a `Map`'s entries, which the search vocabulary is.
   */
  maxWords?: number | undefined;
}

/** The programmatic controls of a mock, for tests. Over HTTP they are served under `/__mock`. */
export interface MockControls {
  /** Returns to the initial state: data, keys, id sequence and clock. */
  reset(): Promise<void>;
  /** Replaces the data (validated first; throws a `SnapshotError` naming the problem). */
  load(state: unknown): Promise<void>;
  /** The data as plain JSON, loadable with `load`. */
  export(): Snapshot;
  /** Freezes the clock at `instant`. */
  setTime(instant: string | number): void;
  /** Moves the clock forward by `ms` (and freezes it). */
  advanceTime(ms: number): void;
  /** Lets the clock follow the wall clock again. */
  useRealTime(): void;
  /** The clock's current reading. */
  now(): string;
  /** Delays every API response by `ms`. */
  setLatency(ms: number): void;
  /**
   * Makes the next `times` calls of an operation answer `status`, after authentication: one of
   * the operation's documented error statuses, or a gateway's 502, 503 (with `Retry-After`) or
   * 504, which any client meets whatever the contract says. Anything else (418) is refused with a
   * `RangeError`. The operation is an `operationId` of openapi.yaml, checked by the compiler.
   */
  failNext(operationId: OperationId, status: number, times?: number): void;
  /** Drops all queued failures and latency. */
  clearFailures(): void;
}

/** A mock of the Answers API: one function from request to response, and its controls. */
export interface AnswersMock {
  /**
   * Answers one request, like `fetch`: the API under any of its path prefixes, and the control
   * API under `/__mock` when `options.control` is set. Says which operation and account the
   * request was routed to. Never rejects: a bug is a 500, its error in `internal` (for a log,
   * never sent). A read's response may be the very one an identical earlier read got
   * (`read-cache.ts`), and is then frozen: copy a response to change it. Every adapter (msw
   * handlers, the Node server, the express router) only translates to and from this.
   */
  handle(request: MockRequest, options?: ServeOptions): Promise<HandledRequest>;
  readonly controls: MockControls;
  /**
   * The records, with `@msw/data`'s verbs (`create`, `findFirst`, `findMany`, `update`, `delete`),
   * for tests to seed and inspect: what is written here the API serves at once, and the reverse.
   */
  readonly db: MockDb;
}
