import { OPERATIONS } from '../openapi/operations.ts';
import { handleRequest } from './handle-request.ts';
import type { MockRequest } from './http.ts';
import type { AnswersMock, InitialState, MockControls, MockOptions } from './mock.ts';
import { MockState } from './model/mock-state.ts';
import { createMockDb } from './mock-db.ts';
import { serve } from './serve.ts';
import { parseSnapshot } from './model/snapshot.ts';

function toMs(instant: string | number): number {
  const ms = typeof instant === 'number' ? instant : Date.parse(instant);
  if (!Number.isFinite(ms)) throw new RangeError(`Not a valid instant: ${String(instant)}`);
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
  const state = new MockState(seed);
  const failures = new Map<string, number[]>();
  let latencyMs = options.latencyMs ?? 0;

  const startClock = () => {
    if (options.now !== undefined) state.clock.set(toMs(options.now));
    else state.clock.unfreeze();
  };
  startClock();
  await state.load(initial());

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
        startClock();
        await state.load(initial());
      }),
    load: (value) => exclusive(() => state.load(parseSnapshot(value))),
    export: () => state.export(),
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

  const mock: AnswersMock = {
    handle: async (request) => (await serve(mock, request)).response,
    handleDetailed,
    controls,
    db: createMockDb(state, exclusive),
    state,
  };
  return mock;
}
