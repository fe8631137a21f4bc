import { constantTimeEqual } from './api-key.ts';
import { forcibleStatuses } from './forced-errors.ts';
import type { Journal } from './journal.ts';
import { journalStream, streamStartOf } from './journal-stream.ts';
import { isLocalOrigin } from './local-names.ts';
import type { MockControls } from './mock.ts';
import type { JournalFilter } from './mock.ts';
import type { MockState } from './store/mock-state.ts';
import { json, noContent, streamed, type MockRequest, type MockResponse } from './http.ts';
import { compileSchema } from '../openapi/ajv.ts';
import { OPERATIONS, type OperationId } from '../openapi/operations.ts';
import { keyRole } from './api-key.ts';
import { problem, problemResponse, type FieldError } from './problem.ts';
import { nonFiniteNumberAt } from './json-limits.ts';
import { MAX_FAILURE_TIMES, MAX_INSTANT_MS, MAX_LATENCY_MS } from './limits.ts';
import { bodyErrorsOf } from './request-validation.ts';
import { SnapshotError, SnapshotLimitError } from './snapshot/snapshot.ts';
import { snapshotPieces } from './snapshot/snapshot-stream.ts';
import { isStateLines, stateOfLines, StateLineError } from './snapshot/state-lines.ts';

/** The path prefix of the control API. It is outside every API prefix, so it never shadows one. */
export const CONTROL_PREFIX = '/__mock';

/**
 * What the control API drives: a mock's controls, the state they act on (its clock, its export),
 * its journal, and what the controls hold (for the inspector page to show).
 */
export interface ControlledMock {
  controls: MockControls;
  state: MockState;
  journal: Journal;
  latencyMs(): number;
  queuedFailures(): Array<{ operation_id: string; status: number; times: number }>;
}

const CONTROL_PROBLEMS = {
  invalid_control_request: { status: 400, title: 'Invalid control request' },
  invalid_state: { status: 400, title: 'Invalid state' },
  state_too_large: { status: 507, title: 'State past the mock’s limits' },
  control_token_required: { status: 401, title: 'Control token required' },
  foreign_origin: { status: 403, title: 'Foreign origin' },
  control_content_type: { status: 415, title: 'Control writes need JSON' },
} as const;

type ControlCode = keyof typeof CONTROL_PROBLEMS;

/** The bodies a control write takes: JSON, or JSON Lines (a state file, `PUT /__mock/state`). */
const CONTROL_TYPES = ['application/json', 'application/x-ndjson'];

/** A problem of the control API (its codes are not codes of the Answers API). */
function controlProblem(
  code: ControlCode,
  detail: string,
  errors: FieldError[] = [],
): MockResponse {
  return problemResponse({ code, ...CONTROL_PROBLEMS[code] }, detail, { errors });
}

const badRequest = controlProblem;

/** Thrown by the body readers below; becomes a 400 `invalid_control_request`. */
class ControlRequestError extends Error {
  constructor(
    message: string,
    readonly errors: FieldError[] = [],
  ) {
    super(message);
  }
}

function readJson(request: MockRequest): unknown {
  // @note TextDecoder drops a leading UTF-8 BOM, which editors on Windows like to write.
  const text = new TextDecoder().decode(request.body ?? new Uint8Array());
  try {
    return JSON.parse(text);
  } catch {
    throw new ControlRequestError('The body must be JSON.');
  }
}

/**
 * A validator for a control body, compiled by the same Ajv as the API's bodies (so the same
 * formats, and the same `errors` in the problem), from a schema written here: the control API
 * is the mock's own, not part of `openapi.yaml`.
 */
function controlBody<T>(properties: Record<string, unknown>, required: string[] = []) {
  const validate = compileSchema({
    type: 'object',
    additionalProperties: false,
    required,
    properties,
  });
  return (request: MockRequest): T => {
    const value = readJson(request);
    const overflow = nonFiniteNumberAt(value);
    if (overflow !== undefined) {
      const message = 'is too large a number to store';
      throw new ControlRequestError(
        `The control request body is invalid: ${overflow} ${message}.`,
        [{ location: 'body', pointer: overflow, message }],
      );
    }
    if (!validate(value)) {
      const errors = bodyErrorsOf(validate);
      const detail = errors.map((e) => `${e.pointer} ${e.message}`).join('; ');
      throw new ControlRequestError(`The control request body is invalid: ${detail}.`, errors);
    }
    return value as T;
  };
}

function check(ok: boolean, detail: string): void {
  if (!ok) throw new ControlRequestError(detail);
}

const readClock = controlBody<{ now?: string; advance_ms?: number; real_time?: true }>({
  now: { type: 'string', format: 'date-time' },
  advance_ms: { type: 'number', minimum: 0, maximum: MAX_INSTANT_MS },
  real_time: { const: true },
});

const readLatency = controlBody<{ ms: number }>(
  { ms: { type: 'number', minimum: 0, maximum: MAX_LATENCY_MS } },
  ['ms'],
);

const readFailure = controlBody<{ operation_id: OperationId; status: number; times?: number }>(
  {
    operation_id: { type: 'string', enum: [...OPERATIONS.keys()] },
    status: { type: 'integer', minimum: 400, maximum: 599 },
    times: { type: 'integer', minimum: 1, maximum: MAX_FAILURE_TIMES },
  },
  ['operation_id', 'status'],
);

/** Runs a control that refuses a value it cannot apply (a RangeError) as a 400. */
function applying(action: () => void): void {
  try {
    action();
  } catch (error) {
    if (error instanceof RangeError) throw new ControlRequestError(error.message);
    throw error;
  }
}

function clockOf(mock: ControlledMock): MockResponse {
  return json(200, { now: mock.controls.now(), frozen: mock.state.clock.frozen });
}

async function setClock(mock: ControlledMock, request: MockRequest): Promise<MockResponse> {
  const { now, advance_ms: advance, real_time: realTime } = readClock(request);
  // @note A date-time the format admits but Date cannot read (a leap second) is refused too.
  check(
    now === undefined || !Number.isNaN(Date.parse(now)),
    '"now" must be an RFC 3339 date-time.',
  );
  check(
    realTime === undefined || (now === undefined && advance === undefined),
    '"real_time" cannot be combined with "now" or "advance_ms".',
  );
  applying(() => {
    if (realTime) mock.controls.useRealTime();
    if (now !== undefined) mock.controls.setTime(now);
    if (advance !== undefined) mock.controls.advanceTime(advance);
  });
  return clockOf(mock);
}

async function loadState(mock: ControlledMock, request: MockRequest): Promise<MockResponse> {
  // @note Either form of a state: an export (one JSON document) or what `--state-file` writes
  // (JSON Lines, a base line first), so that a developer can hand their file to a colleague.
  const text = new TextDecoder().decode(request.body ?? new Uint8Array());
  let state: unknown;
  if (isStateLines(text)) {
    try {
      state = stateOfLines(text);
    } catch (error) {
      if (error instanceof StateLineError)
        return badRequest('invalid_state', `The state file's ${error.message}.`);
      throw error;
    }
  } else state = readJson(request);
  try {
    await mock.controls.load(state);
  } catch (error) {
    // @note 507, as an API write past the same limits: the state is valid, the mock too small.
    if (error instanceof SnapshotLimitError)
      return controlProblem('state_too_large', error.message);
    if (error instanceof SnapshotError) return badRequest('invalid_state', error.message);
    throw error;
  }
  return noContent();
}

async function setLatency(mock: ControlledMock, request: MockRequest): Promise<MockResponse> {
  const { ms } = readLatency(request);
  applying(() => mock.controls.setLatency(ms));
  return noContent();
}

async function queueFailure(mock: ControlledMock, request: MockRequest): Promise<MockResponse> {
  const { operation_id: operationId, status, times } = readFailure(request);
  applying(() => mock.controls.failNext(operationId, status, times));
  return noContent();
}

type ControlRoute = Record<
  string,
  (mock: ControlledMock, request: MockRequest) => Promise<MockResponse>
>;

/** The journal's filters, from the query string: each must be well formed, or a 400 names it. */
function journalFilter(request: MockRequest): JournalFilter {
  const { query } = request;
  const whole = (name: string, min: number, max: number): number | undefined => {
    const text = query.get(name);
    if (text === null) return undefined;
    const value = /^\d{1,16}$/.test(text) ? Number(text) : NaN;
    if (!(value >= min && value <= max))
      throw new ControlRequestError(
        `${name} must be an integer from ${min} to ${max}, not "${text}"`,
      );
    return value;
  };
  const operation = query.get('operation') ?? undefined;
  if (operation !== undefined && !OPERATIONS.has(operation as OperationId))
    throw new ControlRequestError(
      `operation must be an operationId of openapi.yaml (${[...OPERATIONS.keys()].join(', ')}), not "${operation}"`,
    );
  return {
    operation,
    status: whole('status', 100, 599),
    since: whole('since', 0, Number.MAX_SAFE_INTEGER),
  };
}

/** The journal live, as server-sent events (journal-stream.ts). */
function requestStream(mock: ControlledMock, request: MockRequest): MockResponse {
  const filter = journalFilter(request);
  const start = streamStartOf(request.headers.get('last-event-id')) ?? { since: filter.since };
  return {
    status: 200,
    headers: {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      // @note A proxy that buffers (nginx) would hold the events back.
      'x-accel-buffering': 'no',
    },
    pieces: journalStream(mock.journal, filter, start),
  };
}

/** What a failure can be queued for: each operation and the statuses it can be made to answer. */
function failuresOf(mock: ControlledMock): MockResponse {
  const forcible = Object.fromEntries(
    [...OPERATIONS].map(([operationId, operation]) => [operationId, forcibleStatuses(operation)]),
  );
  return json(200, { queued: mock.queuedFailures(), forcible });
}

/**
 * The mock's keys, their accounts and permissions: the development keys a developer picks from
 * (the state export, served to the same pages, holds them too).
 */
function keysOf(mock: ControlledMock): MockResponse {
  const { apiKeys, accounts } = mock.state.store;
  return json(200, {
    accounts: accounts.map(({ id, name }) => ({ id, name })),
    keys: apiKeys.map((key) => ({
      key: key.key,
      account_id: key.account_id,
      permissions: key.permissions,
      active: key.active,
      role: keyRole(key.key, apiKeys),
      ...(key.label === undefined ? {} : { label: key.label }),
    })),
  });
}

const ROUTES: Record<string, ControlRoute> = {
  '/requests': {
    GET: async (mock, request) =>
      json(200, { data: mock.controls.requests(journalFilter(request)) }),
  },
  '/requests/stream': { GET: async (mock, request) => requestStream(mock, request) },
  '/keys': { GET: async (mock) => keysOf(mock) },
  '/reset': {
    POST: async (mock) => {
      await mock.controls.reset();
      return noContent();
    },
  },
  '/state': {
    // @note Written in pieces: at 1,000,000 objects the document passes V8's longest string.
    GET: async (mock) => streamed(200, snapshotPieces(mock.state)),
    PUT: loadState,
  },
  '/clock': {
    GET: async (mock) => clockOf(mock),
    POST: setClock,
  },
  '/latency': { GET: async (mock) => json(200, { ms: mock.latencyMs() }), PUT: setLatency },
  '/failures': {
    GET: async (mock) => failuresOf(mock),
    POST: queueFailure,
    DELETE: async (mock) => {
      mock.controls.clearFailures();
      return noContent();
    },
  },
};

/**
 * Answers a request to the control API under `/__mock` (reset, state export and load, clock,
 * latency, queued failures). Transport-agnostic like the rest of the core; a mock's `handle` calls it
 * for every path under `/__mock` when the control API is enabled.
 */
/**
 * The 403 for a request a page of another site sent (its `Origin`), else undefined: the control
 * API's first rule, which the inspector page (`/__mock/ui`, served by the Node adapters) keeps too.
 */
export function foreignOriginRefusal(
  request: MockRequest,
  namedHost: ((hostname: string) => boolean) | undefined,
): MockResponse | undefined {
  const { headers } = request;
  if (isLocalOrigin(headers.get('origin'), headers.get('host'), namedHost)) return undefined;
  return controlProblem(
    'foreign_origin',
    `The control API answers pages of this machine only, not ${headers.get('origin')}.`,
  );
}

/**
 * Who may drive the control API, checked before anything else: a page of this machine (a foreign
 * `Origin` gets 403: any site a developer visits could otherwise reset or read the mock), writes
 * only as JSON (a browser then has to ask first, and a foreign page's preflight gets no CORS
 * grant), and with the token when the mock was started with one (a non-loopback `--host`).
 */
function guard(
  request: MockRequest,
  token: string | undefined,
  namedHost: ((hostname: string) => boolean) | undefined,
): MockResponse | undefined {
  const { headers } = request;
  const foreign = foreignOriginRefusal(request, namedHost);
  if (foreign) return foreign;
  if (token !== undefined && !constantTimeEqual(headers.get('x-answers-mock-token') ?? '', token))
    return controlProblem(
      'control_token_required',
      'This mock listens beyond loopback: send the control token it printed at start in X-Answers-Mock-Token.',
    );
  const method = request.method.toUpperCase();
  const type = headers.get('content-type')?.split(';', 1)[0]?.trim().toLowerCase();
  // @note A write without a body (`DELETE /__mock/failures`, `POST /__mock/reset`) has nothing to
  // type. It is no easier to forge: a foreign page's request carries its Origin, refused above.
  const hasBody = (request.body?.byteLength ?? 0) > 0 || request.bodyTooLarge === true;
  // @note A state file's own type (JSON Lines) is as safe: no form can send it either.
  if (method !== 'GET' && method !== 'HEAD' && hasBody && !CONTROL_TYPES.includes(type ?? ''))
    return controlProblem(
      'control_content_type',
      `Control writes need Content-Type: application/json, or application/x-ndjson for a state file (got ${type ?? 'none'}).`,
    );
  return undefined;
}

export async function handleControl(
  mock: ControlledMock,
  request: MockRequest,
  bodyLimit: number,
  token?: string,
  namedHost?: (hostname: string) => boolean,
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
  const refused = guard(request, token, namedHost);
  if (refused) return refused;
  const method = request.method.toUpperCase();
  const handler = route[method];
  if (!handler) {
    const allow = Object.keys(route).join(', ');
    return problem('method_not_allowed', `${method} is not supported here; use ${allow}.`, {
      headers: { allow },
    });
  }
  if (request.bodyTooLarge) {
    const raise =
      path === `${CONTROL_PREFIX}/state`
        ? ' (raise it with --max-state-bytes or maxStateBytes)'
        : '';
    return problem(
      'payload_too_large',
      `The body of this control request may be at most ${bodyLimit} bytes${raise}.`,
    );
  }
  try {
    return await handler(mock, request);
  } catch (error) {
    if (error instanceof ControlRequestError)
      return badRequest('invalid_control_request', error.message, error.errors);
    throw error;
  }
}
