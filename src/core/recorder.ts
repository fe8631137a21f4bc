/**
 * Records what a mock answers, at its one entry, as a {@link Recording}: each API exchange with
 * its key by role, grouped by the test that was running (a sequence per test name). Per mock:
 * nothing is shared between mocks, so a test file's recording holds its own exchanges only.
 */
import {
  RECORDING_FORMAT,
  type RecordedExchange,
  type RecordedSequence,
  type Recording,
} from '../openapi/recording.ts';
import { keyRole, type ApiKey } from './api-key.ts';
import { nestsDeeperThan } from './json-limits.ts';
import { MAX_JSON_DEPTH } from './limits.ts';
import type { HandledRequest, MockRequest } from './http.ts';
import type { AnswersMock } from './mock.ts';
import { isControlPath } from './serve.ts';

/** The most exchanges one recording keeps: past it, a test that loops is not recorded whole. */
const MAX_RECORDED_EXCHANGES = 100_000;

function parsed(text: string | undefined): unknown {
  if (text === undefined || text === '') return undefined;
  try {
    const value = JSON.parse(text) as unknown;
    // @note Deeper than any body the API takes (it answers such a body 400): kept whole, the
    // recording's own JSON.stringify overflowed the stack. Its status is what a replay needs.
    return nestsDeeperThan(value, MAX_JSON_DEPTH) ? undefined : value;
  } catch {
    return undefined;
  }
}

/**
 * `exchange` with every key value in it (a key the mock knows, or the one presented) replaced by
 * its role: a client that echoes its key in a body or a query does not put it in the recording.
 */
function withoutKeys(
  exchange: RecordedExchange,
  presented: string | undefined,
  keys: readonly ApiKey[],
): RecordedExchange {
  let text = JSON.stringify(exchange);
  const values = new Set([...keys.map((k) => k.key), ...(presented ? [presented] : [])]);
  let changed = false;
  for (const value of values)
    if (text.includes(value)) {
      text = text.replaceAll(value, `<${keyRole(value, keys)} key>`);
      changed = true;
    }
  return changed ? (JSON.parse(text) as RecordedExchange) : exchange;
}

/** A mock that records what it answers, and the recording so far. */
export interface RecordingMock {
  mock: AnswersMock;
  recording(): Recording;
}

/** Which bodies a recorder keeps. */
type KeptBodies =
  /** Every JSON body, request and answer (a test file's recording, bounded by its tests). */
  | 'all'
  /**
   * Only what replay sends and judges: the bodies of an exchange routed to an API operation and
   * answered 2xx, an answer's only up to {@link MAX_KEPT_RESPONSE_CHARS}. A refused request (a
   * 401, a 413, an unknown path) keeps its status, never its body: whatever a client sends.
   */
  | 'replayed';

/**
 * The largest answer body a `'replayed'` recording keeps, in characters of its JSON: as large as
 * the largest request body the API takes (1 MiB), so every object a client wrote fits.
 */
const MAX_KEPT_RESPONSE_CHARS = 1_048_576;

/**
 * Keeps one recorded exchange and says what to answer: `handled` as it is once kept, or
 * another answer (such as a 507) when it could not be. `kept: false` tells the recorder the
 * exchange is not in the recording, so a change of the data it made is not either.
 */
export type ExchangeSink = (
  sequence: string,
  exchange: RecordedExchange,
  handled: HandledRequest,
) => Promise<{ answer: HandledRequest; kept: boolean }>;

/** Options of {@link recordExchanges}. */
export interface RecordExchangesOptions {
  /** Each exchange's sequence: the test running when it is answered (`unnamed` when none). */
  testName: () => string | undefined;
  /**
   * What the mock's data is now (its store and the store's version): a change between two
   * exchanges of a test is a write outside the API (`mock.db`, factories, a load).
   */
  data?: (() => readonly unknown[]) | undefined;
  /** Default `'all'`. */
  bodies?: KeptBodies | undefined;
}

/**
 * Wraps `mock`'s one entry so that every API exchange it answers is handed to `sink`, keys by
 * role. `keys()` reads the mock's keys as they are then (a reset or load may change them).
 */
export function recordExchanges(
  mock: AnswersMock,
  keys: () => readonly ApiKey[],
  sink: ExchangeSink,
  options: RecordExchangesOptions,
): AnswersMock {
  const { data, testName } = options;
  const bodies = options.bodies ?? 'all';
  /** The sequence the last exchange went to, and whether it has one yet. */
  let current: string | undefined;
  /** The data as the last API exchange left it. */
  let seen: readonly unknown[] | undefined;
  /** API exchanges under way: while one is, a change of the data may be its own. */
  let underWay = 0;
  /** The data changed outside the recording since the last exchange it holds. */
  let changedOutside = false;
  const changed = () => {
    const now = data?.();
    return now !== undefined && seen !== undefined && now.some((value, i) => value !== seen![i]);
  };
  const exchangeOf = (
    request: MockRequest,
    handled: HandledRequest,
  ): [string, RecordedExchange] => {
    const name = testName() ?? 'unnamed';
    // @note Only within a test: what a test starts from is not the sequence's own data anyway.
    const outside = changedOutside && current === name;
    current = name;
    changedOutside = false;
    const { status } = handled.response;
    const keep =
      bodies === 'all' || (handled.operation !== undefined && status >= 200 && status < 300);
    const body =
      keep && request.body && !request.bodyTooLarge
        ? parsed(new TextDecoder().decode(request.body))
        : undefined;
    const text = handled.response.body;
    // @note Measured before parsing: an answer too large is never parsed at all.
    const leftOut =
      keep && bodies === 'replayed' && text !== undefined && text.length > MAX_KEPT_RESPONSE_CHARS;
    const response = keep && !leftOut ? parsed(text) : undefined;
    const exchange: RecordedExchange = {
      operation: handled.operation?.operationId ?? null,
      method: request.method.toUpperCase(),
      path: request.path,
      query: request.query.toString(),
      key: keyRole(handled.presentedKey, keys()),
      ...(body === undefined ? {} : { body }),
      status,
      ...(response === undefined ? {} : { response }),
      ...(leftOut ? { responseLeftOut: true as const } : {}),
      ...(handled.forced ? { forced: true as const } : {}),
      ...(outside ? { afterOutsideChange: true as const } : {}),
    };
    return [name, withoutKeys(exchange, handled.presentedKey, keys())];
  };
  return {
    ...mock,
    handle: async (request, options) => {
      // @note The control API (a reset, a load) changes the data outside the API too.
      if (isControlPath(request.path)) return mock.handle(request, options);
      if (underWay === 0 && changed()) changedOutside = true;
      underWay += 1;
      try {
        const handled = await mock.handle(request, options);
        const { answer, kept } = await sink(...exchangeOf(request, handled), handled);
        // @note What an exchange the recording does not hold changed is outside it too.
        if (!kept && changed()) changedOutside = true;
        return answer;
      } finally {
        underWay -= 1;
        seen = data?.();
      }
    },
  };
}

/**
 * Wraps `mock`'s one entry so that every API exchange it answers is recorded, in memory, under
 * the name `testName()` gives when it is answered (`unnamed` when none).
 */
export function recordingMock(
  mock: AnswersMock,
  keys: () => readonly ApiKey[],
  testName: () => string | undefined,
  data?: () => readonly unknown[],
): RecordingMock {
  const sequences: RecordedSequence[] = [];
  let count = 0;
  const keep: ExchangeSink = (name, exchange, handled) => {
    if (count >= MAX_RECORDED_EXCHANGES) return Promise.resolve({ answer: handled, kept: false });
    count += 1;
    let sequence = sequences.at(-1);
    if (sequence?.name !== name) sequences.push((sequence = { name, exchanges: [] }));
    sequence.exchanges.push(exchange);
    return Promise.resolve({ answer: handled, kept: true });
  };
  return {
    mock: recordExchanges(mock, keys, keep, { testName, data }),
    recording: () => ({ format: RECORDING_FORMAT, sequences: structuredClone(sequences) }),
  };
}
