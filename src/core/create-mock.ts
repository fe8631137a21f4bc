import { handleRequest, type HandledRequest } from './handle-request.ts';
import type { MockRequest, MockResponse } from './http.ts';
import { MockState } from './mock-state.ts';
import { OPERATIONS } from './router.ts';
import type { StoreState } from './store.ts';
import { parseState } from './state-file.ts';
import { defaultState } from '../seed/default-state.ts';

/** Options of {@link createMock}. */
export interface MockOptions {
  /**
   * The data to start from, and to return to on `reset`. Default: the default seed
   * (`fixtures/default-state.json`); `emptyState()` gives the dev keys and no data. A function is
   * called again on every `reset`, so no copy of a large state is kept around for it.
   */
  initialState?: StoreState | (() => StoreState) | undefined;
  /** Seeds the id sequence and the cursor secret. Default 1. */
  seed?: number | undefined;
  /** Freezes the clock at this instant (RFC 3339 or ms) for deterministic timestamps. */
  now?: string | number | undefined;
  /** Delay before each API response, in ms. Default 0. */
  latencyMs?: number | undefined;
}

/** The programmatic controls of a mock, for tests. Over HTTP they are served under `/__mock`. */
export interface MockControls {
  /** Returns to the initial state: data, keys, id sequence and clock. */
  reset(): Promise<void>;
  /** Replaces the data (validated first; throws a `StateError` naming the problem). */
  load(state: unknown): Promise<void>;
  /** The data as plain JSON, loadable with `load`. */
  export(): StoreState;
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
   * Makes the next `times` calls of an operation answer `status` (one of its documented error
   * statuses), after authentication.
   */
  failNext(operationId: string, status: number, times?: number): void;
  /** Drops all queued failures and latency. */
  clearFailures(): void;
}

/** A mock of the Answers API: one function from request to response, and its controls. */
export interface AnswersMock {
  /** Answers one API request (any of the three path prefixes). */
  handle(request: MockRequest): Promise<MockResponse>;
  /** Like `handle`, and also says which operation and account the request was routed to. */
  handleDetailed(request: MockRequest): Promise<HandledRequest>;
  readonly controls: MockControls;
  /** The state, for adapters and tests that need to look inside. */
  readonly state: MockState;
}

function toMs(instant: string | number): number {
  const ms = typeof instant === 'number' ? instant : Date.parse(instant);
  if (!Number.isFinite(ms)) throw new RangeError(`Not a valid instant: ${String(instant)}`);
  return ms;
}

/**
 * Creates a mock. Every adapter (msw handlers, the Node server, the express router) wraps the
 * `handle` of one of these; none of them contains API behaviour.
 */
export async function createMock(options: MockOptions = {}): Promise<AnswersMock> {
  const seed = options.seed ?? 1;
  const { initialState = defaultState } = options;
  const initial = () =>
    parseState(typeof initialState === 'function' ? initialState() : initialState);
  const state = new MockState(seed);
  const failures = new Map<string, number[]>();
  let latencyMs = options.latencyMs ?? 0;

  const startClock = () => {
    if (options.now !== undefined) state.clock.set(toMs(options.now));
    else state.clock.unfreeze();
  };
  startClock();
  await state.store.load(initial());

  const hooks = {
    takeFailure(operationId: string) {
      return failures.get(operationId)?.shift();
    },
  };

  // @note Store writes await (`@msw/data`), so two requests could interleave between an
  // operation's checks and its write: duplicate names, objects in deleted collections, deleted
  // records coming back, lost updates. Requests and state replacements run one at a time instead,
  // in arrival order, each seeing the state the previous one left (latency is waited outside).
  let queue: Promise<unknown> = Promise.resolve();
  const exclusive = <T>(task: () => Promise<T>): Promise<T> => {
    const run = queue.then(task);
    queue = run.catch(() => undefined);
    return run;
  };

  const handleDetailed = async (request: MockRequest) => {
    if (latencyMs > 0) await new Promise((resolve) => setTimeout(resolve, latencyMs));
    return exclusive(() => handleRequest(state, hooks, request));
  };

  const controls: MockControls = {
    reset: () =>
      exclusive(async () => {
        failures.clear();
        latencyMs = options.latencyMs ?? 0;
        state.ids.reseed(seed);
        startClock();
        await state.store.load(initial());
      }),
    load: (value) => exclusive(() => state.store.load(parseState(value))),
    export: () => state.store.export(),
    setTime: (instant) => state.clock.set(toMs(instant)),
    advanceTime: (ms) => state.clock.advance(ms),
    useRealTime: () => state.clock.unfreeze(),
    now: () => new Date(state.clock.peek()).toISOString(),
    setLatency(ms) {
      if (!Number.isFinite(ms) || ms < 0)
        throw new RangeError('Latency must be a number of ms >= 0');
      latencyMs = ms;
    },
    failNext(operationId, status, times = 1) {
      if (!OPERATIONS.has(operationId)) {
        throw new RangeError(
          `Unknown operation "${operationId}"; one of ${[...OPERATIONS.keys()].join(', ')}`,
        );
      }
      const queue = failures.get(operationId) ?? [];
      for (let i = 0; i < times; i++) queue.push(status);
      failures.set(operationId, queue);
    },
    clearFailures() {
      failures.clear();
      latencyMs = 0;
    },
  };

  return {
    handle: async (request) => (await handleDetailed(request)).response,
    handleDetailed,
    controls,
    state,
  };
}
