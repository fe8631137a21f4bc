import { OPERATIONS } from '../openapi/operations.ts';
import { canAnswerNow } from './answer-now.ts';
import { forcibleStatuses } from './forced-errors.ts';
import {
  DEFAULT_MAX_OBJECTS,
  DEFAULT_MAX_STORED_BYTES,
  MAX_FAILURE_RUNS,
  MAX_FAILURE_TIMES,
  MAX_INSTANT_MS,
  MAX_LATENCY_MS,
  MIN_INSTANT_MS,
} from './limits.ts';
import { handleRequest, type HandledRequest, type RequestHooks } from './handle-request.ts';
import { ReadCache } from './read-cache.ts';
import type { MockRequest } from './http.ts';
import type { AnswersMock, InitialState, MockControls, MockOptions } from './mock.ts';
import { MockState } from './store/mock-state.ts';
import { createMockDb } from './mock-db.ts';
import { serve } from './serve.ts';
import { parseSnapshot } from './snapshot/snapshot.ts';

/** An instant the clock can show and RFC 3339 can write (1970 to 9999). */
function toMs(instant: string | number): number {
  const ms = typeof instant === 'number' ? instant : Date.parse(instant);
  if (!Number.isFinite(ms)) throw new RangeError(`Not a valid instant: ${String(instant)}`);
  if (ms < MIN_INSTANT_MS || ms > MAX_INSTANT_MS)
    throw new RangeError(`The clock can show 1970-01-01 to 9999-12-31, not ${String(instant)}`);
  return ms;
}

/**
 * Creates a mock that starts from `initialState`. The core is given its data and imports none:
 * the entry points supply the default seed (so a bundle that brings its own data carries none of
 * ours). Every adapter (msw handlers, the Node server, the express router) wraps one of these;
 * none of them contains API behaviour.
 */
export async function createMockFrom(
  initialState: InitialState,
  options: Omit<MockOptions, 'initialState'> = {},
): Promise<AnswersMock> {
  const seed = options.seed ?? 1;
  const initial = () =>
    parseSnapshot(typeof initialState === 'function' ? initialState() : initialState);
  const state = new MockState(seed, {
    maxObjects: options.maxObjects ?? DEFAULT_MAX_OBJECTS,
    maxStoredBytes: options.maxStoredBytes ?? DEFAULT_MAX_STORED_BYTES,
  });
  // @note Runs of [status, times], so a queue costs memory by kind, not by count (a huge `times`
  // once allocated an entry per time and blocked the process).
  const failures = new Map<string, Array<{ status: number; left: number }>>();
  let latencyMs = options.latencyMs ?? 0;

  const startClock = () => {
    if (options.now !== undefined) state.clock.set(toMs(options.now));
    else state.clock.unfreeze();
  };
  startClock();
  await state.load(initial());

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

  // @note Store writes are synchronous, but a load, a reset and the delete of a large collection
  // let the event loop run (`breathe`), and operations still return promises: a request could
  // otherwise interleave with one of those (objects in a collection being deleted, a read of a
  // store half loaded). Requests and state replacements run one at a time, in arrival order,
  // each seeing the state the previous one left (latency is waited outside). Removing this queue
  // is the next step of the plain store (docs/decisions/plain-store.md).
  let queue: Promise<unknown> = Promise.resolve();
  // @note How many tasks are queued or running: none means a synchronous answer may skip the queue.
  let pending = 0;
  const settled = () => {
    pending -= 1;
  };
  /** Runs `run`'s promise as the queue's current task: later tasks wait until it settles. */
  const occupy = <T>(run: Promise<T>): Promise<T> => {
    pending += 1;
    // @note Settles to undefined: the queue must not keep the last result (a page body) alive.
    queue = run.then(settled, settled);
    return run;
  };
  const exclusive = <T>(task: () => T | Promise<T>): Promise<T> => occupy(queue.then(task));

  const handleDetailed = async (request: MockRequest) => {
    if (latencyMs > 0) await new Promise((resolve) => setTimeout(resolve, latencyMs));
    return exclusive(() => handleRequest(state, hooks, request));
  };
  // @note Nothing can interleave with a synchronous answer, so running it at once when the queue
  // is idle keeps requests atomic and in arrival order; an asynchronous one (a write) occupies
  // the queue like any other task.
  const handleNow = (request: MockRequest) => {
    if (pending > 0 || latencyMs > 0) return handleDetailed(request);
    const answer = handleRequest(state, hooks, request);
    return answer instanceof Promise ? occupy(answer) : answer;
  };

  const controls: MockControls = {
    reset: () =>
      exclusive(async () => {
        failures.clear();
        latencyMs = options.latencyMs ?? 0;
        startClock();
        await state.load(initial());
      }),
    load: (value) => exclusive(() => state.load(parseSnapshot(value))),
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
  };

  const mock: AnswersMock = {
    handle: async (request) => (await serve(mock, request)).response,
    handleDetailed,
    controls,
    db: createMockDb(state, exclusive),
    state,
  };
  canAnswerNow(mock, handleNow);
  return mock;
}
