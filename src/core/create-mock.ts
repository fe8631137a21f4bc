import { OPERATIONS } from '../openapi/operations.ts';
import { forcibleStatuses } from './forced-errors.ts';
import {
  DEFAULT_MAX_OBJECTS,
  DEFAULT_MAX_STORED_BYTES,
  DEFAULT_MAX_WORDS,
  MAX_FAILURE_RUNS,
  MAX_FAILURE_TIMES,
  MAX_INSTANT_MS,
  MAX_LATENCY_MS,
  MIN_INSTANT_MS,
} from './limits.ts';
import { DEFAULT_JOURNAL_SIZE, Journal, MAX_JOURNAL_SIZE } from './journal.ts';
import { ReadCache } from './read-cache.ts';
import { handleRequest, type RequestHooks } from './handle-request.ts';
import type { HandledRequest } from './http.ts';
import type { MockRequest } from './http.ts';
import type { AnswersMock, InitialState, MockControls, MockOptions } from './mock.ts';
import { MockState } from './store/mock-state.ts';
import { createMockDb } from './mock-db.ts';
import { entry, type ApiAnswer } from './serve.ts';

const noop = (): void => undefined;

/** An instant the clock can show and RFC 3339 can write (1970 to 9999). */
function toMs(instant: string | number): number {
  const ms = typeof instant === 'number' ? instant : Date.parse(instant);
  if (!Number.isFinite(ms)) throw new RangeError(`Not a valid instant: ${String(instant)}`);
  if (ms < MIN_INSTANT_MS || ms > MAX_INSTANT_MS)
    throw new RangeError(`The clock can show 1970-01-01 to 9999-12-31, not ${String(instant)}`);
  return ms;
}

/**
 * What may answer a request before the mock's API does (a deliberate fault): made once per mock,
 * from the state it may read; `next` is the API's own answer.
 */
export type Intercept = (
  state: MockState,
) => (request: MockRequest, next: ApiAnswer) => Promise<HandledRequest>;

/** A mock and the state behind it: what the kit's own assembly points (its CLI, faults) hold. */
export interface MockAssembly {
  mock: AnswersMock;
  state: MockState;
}

/**
 * The one place a mock is put together: its state, its controls, `mock.db`, and its one entry
 * `handle` (with `intercept` in front of the API, when given). Returns the state beside the mock,
 * for the kit's assembly points that need it (the CLI's state file); users get the mock alone.
 * The core is given its data and imports none: the entry points supply the default seed (so a
 * bundle that brings its own data carries none of ours). Every adapter (msw handlers, the Node
 * server, the express router) wraps one of these; none of them contains API behaviour.
 */
export async function assembleMock(
  initialState: InitialState,
  options: Omit<MockOptions, 'initialState'> = {},
  intercept?: Intercept,
): Promise<MockAssembly> {
  const seed = options.seed ?? 1;
  /** The initial state, unchecked: `MockState.replace` checks it a slice at a time. */
  const initialValue = () => (typeof initialState === 'function' ? initialState() : initialState);
  const state = new MockState(seed, {
    maxObjects: options.maxObjects ?? DEFAULT_MAX_OBJECTS,
    maxStoredBytes: options.maxStoredBytes ?? DEFAULT_MAX_STORED_BYTES,
    maxWords: options.maxWords ?? DEFAULT_MAX_WORDS,
  });
  // @note Runs of [status, times], so a queue costs memory by kind, not by count (a huge `times`
  // once allocated an entry per time and blocked the process).
  const failures = new Map<string, Array<{ status: number; left: number }>>();
  let latencyMs = options.latencyMs ?? 0;
  const journalSize = options.journalSize ?? DEFAULT_JOURNAL_SIZE;
  if (!Number.isSafeInteger(journalSize) || journalSize < 0 || journalSize > MAX_JOURNAL_SIZE)
    throw new RangeError(`journalSize must be an integer from 0 to ${MAX_JOURNAL_SIZE}`);
  const journal = new Journal(journalSize, options.journalBodies === true);

  const startClock = () => {
    if (options.now !== undefined) state.clock.set(toMs(options.now));
    else state.clock.unfreeze();
  };
  startClock();
  await state.replace(initialValue());

  const hooks: RequestHooks = {
    reads: new ReadCache<HandledRequest>(),
    takeFailure(operationId: string) {
      const queue = failures.get(operationId);
      const run = queue?.[0];
      if (!run) return undefined;
      run.left -= 1;
      if (run.left === 0) queue!.shift();
      if (queue!.length === 0) failures.delete(operationId);
      return run.status;
    },
    failuresQueued: () => failures.size > 0,
  };

  // @note Every operation is synchronous: a request is answered in one step that no other
  // request can interleave with, at once. Only a state replacement (load, reset) takes turns of
  // the event loop, building the new state apart in slices while requests and `mock.db` writes
  // are answered from the state as it was, then swapping it in in one step (`MockState.replace`):
  // no request waits for more than a slice. Replacements run one after another, in the order
  // asked. This is the mock's one sync/async split (docs/decisions/one-way-to-answer.md).
  /** Runs `task` now, its outcome as a promise. */
  const inTurn = <T>(task: () => T): Promise<T> => {
    try {
      return Promise.resolve(task());
    } catch (error) {
      return Promise.reject(error as Error);
    }
  };

  let replacing: Promise<unknown> | undefined;
  /**
   * Runs a replacement now, unless one is still building: then after it. Done in the call (a
   * small state), it leaves nothing to wait for.
   */
  const inOrder = (task: () => Promise<void> | undefined): Promise<void> => {
    let run: Promise<void>;
    if (replacing === undefined) {
      try {
        const building = task();
        if (building === undefined) return Promise.resolve();
        run = building;
      } catch (error) {
        return Promise.reject(error as Error);
      }
    } else run = replacing.then(task);
    const tail: Promise<unknown> = run.then(noop, noop);
    replacing = tail;
    void tail.then(() => {
      if (replacing === tail) replacing = undefined;
    });
    return run;
  };

  /**
   * The API's answer, kept in the journal as it is made (in the same step: no promise of its
   * own), with when the request arrived (`began`, before any latency) and the latency it got.
   */
  const answer = (request: MockRequest, began: number, latency: number) => {
    const handled = handleRequest(state, hooks, request);
    if (journalSize > 0) journal.add(request, handled, began, latency, state.store.apiKeys);
    return handled;
  };
  // @note Not an async function: returning `inTurn`'s promise from one would wrap it in another.
  const answerApi: ApiAnswer = (request) => {
    const began = performance.now();
    const latency = latencyMs;
    return latency > 0
      ? new Promise((resolve) => setTimeout(resolve, latency)).then(() =>
          inTurn(() => answer(request, began, latency)),
        )
      : inTurn(() => answer(request, began, 0));
  };

  const controls: MockControls = {
    reset: () =>
      inOrder(() =>
        // @note The failures, latency and clock return with the data, in the step that swaps it in.
        state.replace(initialValue(), () => {
          failures.clear();
          journal.clear();
          latencyMs = options.latencyMs ?? 0;
          startClock();
        }),
      ),
    load: (value) => inOrder(() => state.replace(value)),
    export: () => state.export(),
    setTime: (instant) => state.clock.set(toMs(instant)),
    advanceTime(ms) {
      // @note Checked before moving: 1e300 once made every later write a 500 until reset.
      if (!Number.isFinite(ms) || ms < 0 || state.clock.peek() + ms > MAX_INSTANT_MS)
        throw new RangeError(
          `advance must be a number of ms >= 0 that keeps the clock before 9999-12-31`,
        );
      state.clock.advance(ms);
    },
    useRealTime: () => state.clock.unfreeze(),
    now: () => new Date(state.clock.peek()).toISOString(),
    setLatency(ms) {
      if (!Number.isFinite(ms) || ms < 0 || ms > MAX_LATENCY_MS)
        throw new RangeError(`Latency must be a number of ms from 0 to ${MAX_LATENCY_MS}`);
      latencyMs = ms;
    },
    failNext(operationId, status, times = 1) {
      const operation = OPERATIONS.get(operationId);
      if (!operation) {
        throw new RangeError(
          `Unknown operation "${operationId}"; one of ${[...OPERATIONS.keys()].join(', ')}`,
        );
      }
      const forcible = forcibleStatuses(operation);
      if (!forcible.includes(status))
        throw new RangeError(
          `${operationId} cannot be made to answer ${status}; it can answer ${forcible.join(', ')}`,
        );
      if (!Number.isSafeInteger(times) || times < 1 || times > MAX_FAILURE_TIMES)
        throw new RangeError(`times must be an integer from 1 to ${MAX_FAILURE_TIMES}`);
      const queue = failures.get(operationId) ?? [];
      const last = queue.at(-1);
      if (last?.status === status) last.left = Math.min(last.left + times, MAX_FAILURE_TIMES);
      else if (queue.length >= MAX_FAILURE_RUNS)
        throw new RangeError(
          `at most ${MAX_FAILURE_RUNS} different failures can wait per operation`,
        );
      else queue.push({ status, left: times });
      failures.set(operationId, queue);
    },
    clearFailures() {
      failures.clear();
      latencyMs = 0;
    },
    requests: (filter) => journal.list(filter),
  };

  const interceptor = intercept?.(state);
  const api: ApiAnswer = interceptor ? (request) => interceptor(request, answerApi) : answerApi;
  const mock: AnswersMock = {
    handle: entry(api, {
      controls,
      state,
      journal,
      latencyMs: () => latencyMs,
      queuedFailures: () =>
        [...failures].flatMap(([operationId, runs]) =>
          runs.map(({ status, left }) => ({ operation_id: operationId, status, times: left })),
        ),
    }),
    controls,
    db: createMockDb(state, inTurn),
  };
  return { mock, state };
}
