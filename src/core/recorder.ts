/**
 * Records what a mock answers, at its one entry, as a {@link Recording}: each API exchange with
 * its key by role, grouped by the test that was running (a sequence per test name). Per mock:
 * nothing is shared between mocks, so a test file's recording holds its own exchanges only.
 */
import {
  RECORDING_FORMAT,
  type KeyRole,
  type RecordedExchange,
  type RecordedSequence,
  type Recording,
} from '../openapi/recording.ts';
import type { ApiKey } from './api-key.ts';
import type { HandledRequest, MockRequest } from './http.ts';
import type { AnswersMock } from './mock.ts';
import { isControlPath } from './serve.ts';

/** The most exchanges one recording keeps: past it, a test that loops is not recorded whole. */
const MAX_RECORDED_EXCHANGES = 100_000;

const FULL = ['read', 'write', 'search'] as const;

/** The role of a presented key among the mock's keys (see {@link KeyRole}). */
export function keyRole(presented: string | undefined, keys: readonly ApiKey[]): KeyRole {
  if (presented === undefined) return 'none';
  const key = keys.find((k) => k.key === presented);
  if (!key) return 'unknown';
  if (!key.active) return 'inactive';
  const home = keys.find((k) => k.active && FULL.every((p) => k.permissions.includes(p)));
  if (home && key.account_id !== home.account_id) return 'otherAccount';
  return FULL.every((p) => key.permissions.includes(p)) ? 'full' : 'readonly';
}

function parsed(text: string | undefined): unknown {
  if (text === undefined || text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
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

/**
 * Wraps `mock`'s one entry so that every API exchange it answers is recorded, under the name
 * `testName()` gives when it is answered (`unnamed` when none). `keys()` reads the mock's keys
 * as they are then (a reset or load may change them).
 */
export function recordingMock(
  mock: AnswersMock,
  keys: () => readonly ApiKey[],
  testName: () => string | undefined,
  /**
   * What the mock's data is now (its store and the store's version): a change between two
   * exchanges of a test is a write outside the API (`mock.db`, factories, a load).
   */
  data?: () => readonly unknown[],
): RecordingMock {
  const sequences: RecordedSequence[] = [];
  let count = 0;
  /** The data as the last API exchange left it. */
  let seen: readonly unknown[] | undefined;
  /** API exchanges under way: while one is, a change of the data may be its own. */
  let underWay = 0;
  /** The data changed outside the API since the last API exchange. */
  let changedOutside = false;
  const changed = () => {
    const now = data?.();
    return now !== undefined && seen !== undefined && now.some((value, i) => value !== seen![i]);
  };
  const add = (request: MockRequest, handled: HandledRequest): void => {
    if (count >= MAX_RECORDED_EXCHANGES) return;
    count += 1;
    const name = testName() ?? 'unnamed';
    let sequence = sequences.at(-1);
    if (sequence?.name !== name) sequences.push((sequence = { name, exchanges: [] }));
    // @note Only within a test: what a test starts from is not the sequence's own data anyway.
    const outside = changedOutside && sequence.exchanges.length > 0;
    changedOutside = false;
    const body =
      request.body && !request.bodyTooLarge
        ? parsed(new TextDecoder().decode(request.body))
        : undefined;
    const response = parsed(handled.response.body);
    const exchange: RecordedExchange = {
      operation: handled.operation?.operationId ?? null,
      method: request.method.toUpperCase(),
      path: request.path,
      query: request.query.toString(),
      key: keyRole(handled.presentedKey, keys()),
      ...(body === undefined ? {} : { body }),
      status: handled.response.status,
      ...(response === undefined ? {} : { response }),
      ...(handled.forced ? { forced: true as const } : {}),
      ...(outside ? { afterOutsideChange: true as const } : {}),
    };
    sequence.exchanges.push(withoutKeys(exchange, handled.presentedKey, keys()));
  };
  return {
    mock: {
      ...mock,
      handle: async (request, options) => {
        // @note The control API (a reset, a load) changes the data outside the API too.
        if (isControlPath(request.path)) return mock.handle(request, options);
        if (underWay === 0 && changed()) changedOutside = true;
        underWay += 1;
        try {
          const handled = await mock.handle(request, options);
          add(request, handled);
          return handled;
        } finally {
          underWay -= 1;
          seen = data?.();
        }
      },
    },
    recording: () => ({ format: RECORDING_FORMAT, sequences: structuredClone(sequences) }),
  };
}
