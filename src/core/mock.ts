import type { HandledRequest } from './http.ts';
import type { MockRequest, ServeOptions } from './http.ts';
import type { MockDb } from './record-table.ts';
import type { Snapshot } from './snapshot/snapshot.ts';
import type { OperationId } from '../openapi/operations.ts';
import type { KeyRole } from '../openapi/recording.ts';

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
  /**
   * The API requests the journal keeps (`controls.requests()`, `GET /__mock/requests`), the
   * oldest dropped past it. Default 10,000; 0 keeps none.
   */
  journalSize?: number | undefined;
  /** Keeps each request's and answer's body in the journal too (cut to 4 KiB, keys by role). */
  journalBodies?: boolean | undefined;
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
  /**
   * The API requests answered since the start or the last `reset`, oldest first, as the journal
   * keeps them (never a key: its role and a masked form), filtered by operation, status, and
   * `since` (entries after that `seq`).
   */
  requests(filter?: JournalFilter): JournalEntry[];
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

/** One API request as the journal keeps it. */
export interface JournalEntry {
  /** Its place in the mock's history, from 1; a reset starts again at 1. */
  seq: number;
  /** When it arrived (the wall clock, not the mock's: a frozen clock would show them all alike). */
  at: string;
  method: string;
  /** Without the query string (a key may be in it). */
  path: string;
  /** The operationId of openapi.yaml it was routed to; none for a path or method of no operation. */
  operation?: string | undefined;
  /** The key's role among the mock's keys: `none` without one, `unknown` for a key it does not hold. */
  key: KeyRole;
  /** The key presented, masked (`…acme`): enough to tell two apart, never the key. */
  maskedKey?: string | undefined;
  status: number;
  /** The problem code of an error answer. */
  code?: string | undefined;
  /** How long the mock took to answer it, latency included, in ms. */
  ms: number;
  /** What a control forced: a `Prefer` status or a queued failure, and the latency it was given. */
  forced?: { how?: string | undefined; latencyMs?: number | undefined } | undefined;
  /** With `journalBodies` only: the request's and the answer's bodies, cut to 4 KiB. */
  requestBody?: string | undefined;
  responseBody?: string | undefined;
}

/** What `requests()` and `GET /__mock/requests` filter on: each given must match. */
export interface JournalFilter {
  operation?: string | undefined;
  status?: number | undefined;
  /** Entries after this `seq` (a client polling for what is new). */
  since?: number | undefined;
}
