import type { AnswersMock } from './mock.ts';
import { json, noContent, type MockRequest, type MockResponse } from './http.ts';
import { problem } from './problem.ts';
import { SnapshotError } from './model/snapshot.ts';

/** The path prefix of the control API. It is outside every API prefix, so it never shadows one. */
export const CONTROL_PREFIX = '/__mock';

type ControlCode = 'invalid_control_request' | 'invalid_state';

/** A 400 problem of the control API (its codes are not codes of the Answers API). */
function badRequest(code: ControlCode, detail: string): MockResponse {
  const title = code === 'invalid_state' ? 'Invalid state' : 'Invalid control request';
  const body = { type: `urn:answers:problem:${code}`, title, status: 400, code, detail };
  return {
    status: 400,
    headers: { 'content-type': 'application/problem+json' },
    body: JSON.stringify(body),
  };
}

/** Thrown by the body readers below; becomes a 400 `invalid_control_request`. */
class ControlRequestError extends Error {}

function readJson(request: MockRequest): unknown {
  const text = new TextDecoder().decode(request.body ?? new Uint8Array());
  try {
    return JSON.parse(text);
  } catch {
    throw new ControlRequestError('The body must be JSON.');
  }
}

/** Reads a JSON object body whose keys are all in `allowed`. */
function readObject(request: MockRequest, allowed: string[]): Record<string, unknown> {
  const value = readJson(request);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new ControlRequestError('The body must be a JSON object.');
  }
  const unknown = Object.keys(value).filter((key) => !allowed.includes(key));
  if (unknown.length > 0) {
    throw new ControlRequestError(`Unknown field "${unknown[0]}"; allowed: ${allowed.join(', ')}.`);
  }
  return value as Record<string, unknown>;
}

function check(ok: boolean, detail: string): void {
  if (!ok) throw new ControlRequestError(detail);
}

const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/i;

function clockOf(mock: AnswersMock): MockResponse {
  return json(200, { now: mock.controls.now(), frozen: mock.state.clock.frozen });
}

async function setClock(mock: AnswersMock, request: MockRequest): Promise<MockResponse> {
  const body = readObject(request, ['now', 'advance_ms', 'real_time']);
  const { now, advance_ms: advance, real_time: realTime } = body;
  check(
    now === undefined ||
      (typeof now === 'string' && RFC3339.test(now) && !Number.isNaN(Date.parse(now))),
    '"now" must be an RFC 3339 date-time.',
  );
  check(
    advance === undefined ||
      (typeof advance === 'number' && Number.isFinite(advance) && advance >= 0),
    '"advance_ms" must be a number >= 0.',
  );
  check(realTime === undefined || realTime === true, '"real_time" can only be true.');
  check(
    realTime === undefined || (now === undefined && advance === undefined),
    '"real_time" cannot be combined with "now" or "advance_ms".',
  );
  if (realTime) mock.controls.useRealTime();
  if (typeof now === 'string') mock.controls.setTime(now);
  if (typeof advance === 'number') mock.controls.advanceTime(advance);
  return clockOf(mock);
}

async function loadState(mock: AnswersMock, request: MockRequest): Promise<MockResponse> {
  const state = readJson(request);
  try {
    await mock.controls.load(state);
  } catch (error) {
    if (error instanceof SnapshotError) return badRequest('invalid_state', error.message);
    throw error;
  }
  return noContent();
}

async function setLatency(mock: AnswersMock, request: MockRequest): Promise<MockResponse> {
  const { ms } = readObject(request, ['ms']);
  check(typeof ms === 'number' && Number.isFinite(ms) && ms >= 0, '"ms" must be a number >= 0.');
  mock.controls.setLatency(ms as number);
  return noContent();
}

async function queueFailure(mock: AnswersMock, request: MockRequest): Promise<MockResponse> {
  const {
    operation_id: operationId,
    status,
    times,
  } = readObject(request, ['operation_id', 'status', 'times']);
  check(typeof operationId === 'string', '"operation_id" must be a string.');
  check(
    Number.isInteger(status) && (status as number) >= 400 && (status as number) <= 599,
    '"status" must be an error status (400-599).',
  );
  check(
    times === undefined || (Number.isInteger(times) && (times as number) >= 1),
    '"times" must be an integer >= 1.',
  );
  try {
    mock.controls.failNext(operationId as string, status as number, times as number | undefined);
  } catch (error) {
    throw new ControlRequestError(error instanceof Error ? error.message : String(error));
  }
  return noContent();
}

type ControlRoute = Record<
  string,
  (mock: AnswersMock, request: MockRequest) => Promise<MockResponse>
>;

const ROUTES: Record<string, ControlRoute> = {
  '/reset': {
    POST: async (mock) => {
      await mock.controls.reset();
      return noContent();
    },
  },
  '/state': {
    GET: async (mock) => json(200, mock.controls.export()),
    PUT: loadState,
  },
  '/clock': {
    GET: async (mock) => clockOf(mock),
    POST: setClock,
  },
  '/latency': { PUT: setLatency },
  '/failures': {
    POST: queueFailure,
    DELETE: async (mock) => {
      mock.controls.clearFailures();
      return noContent();
    },
  },
};

/**
 * Answers a request to the control API under `/__mock` (reset, state export and load, clock,
 * latency, queued failures). Transport-agnostic like the rest of the core; `serve` calls it for
 * every path under `/__mock` when the control API is enabled.
 */
export async function handleControl(
  mock: AnswersMock,
  request: MockRequest,
): Promise<MockResponse> {
  const { path } = request;
  const route = ROUTES[path.slice(CONTROL_PREFIX.length)];
  if (!route) {
    return problem(
      'not_found',
      `No control endpoint has the path ${path}; see ${Object.keys(ROUTES)
        .map((p) => CONTROL_PREFIX + p)
        .join(', ')}.`,
    );
  }
  const method = request.method.toUpperCase();
  const handler = route[method];
  if (!handler) {
    const allow = Object.keys(route).join(', ');
    return problem('method_not_allowed', `${method} is not supported here; use ${allow}.`, {
      headers: { allow },
    });
  }
  if (request.bodyTooLarge)
    return problem('payload_too_large', 'The body of a control request may be at most 1 MiB.');
  try {
    return await handler(mock, request);
  } catch (error) {
    if (error instanceof ControlRequestError)
      return badRequest('invalid_control_request', error.message);
    throw error;
  }
}
