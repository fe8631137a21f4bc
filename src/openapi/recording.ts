/**
 * A recording: the exchanges a consumer's tests had with the mock, as sequences named by their
 * test, for `answers-contract replay` to run against a deployment. Requests as sent and answers
 * as given; keys by role, never by value, so a recording can be committed and shared.
 */

/** The format a recording file declares, and the version of its shape. */
export const RECORDING_FORMAT = 'answers-recording/1';

/**
 * The format `answers-mock --record` writes: JSON Lines, appended to as the mock answers (never
 * rewritten), so a long session costs each exchange its own line. The first line is
 * `{"format":"answers-recording-lines/1"}`; each other line is one {@link RecordingLine}. The
 * sequences are the lines' `sequence` names, in the order each first appears.
 */
export const RECORDING_LINES_FORMAT = 'answers-recording-lines/1';

/** The largest recording `answers-contract replay` reads, in bytes. */
export const MAX_RECORDING_BYTES = 64 * 1024 * 1024;
/** The most exchanges a recording replay reads may hold, over every sequence. */
export const MAX_RECORDING_EXCHANGES = 100_000;

/** One line of a recording of the lines form after its first: an exchange and its sequence. */
export interface RecordingLine {
  sequence: string;
  exchange: RecordedExchange;
}

/**
 * The key a request presented, by what it may do: the full key of the account the tests work in
 * (the first active key that may read, write and search), a read-only key of that account, a
 * key of another account, an inactive key, none, or one the mock does not know.
 */
export type KeyRole = 'full' | 'readonly' | 'otherAccount' | 'inactive' | 'none' | 'unknown';

/** One request and the answer it got. */
export interface RecordedExchange {
  /** The operationId it was routed to; null for a path or method the API does not have. */
  operation: string | null;
  method: string;
  /** The path as sent (percent-encoded, with its API prefix), ids as the mock gave them. */
  path: string;
  /** The query string as sent, without `?`. */
  query: string;
  key: KeyRole;
  /** The request's JSON body, when it had one that parses. */
  body?: unknown;
  status: number;
  /** The answer's JSON body, when it had one. */
  response?: unknown;
  /**
   * The test forced this answer (`Prefer: code=…`, `mock.controls.failNext`): what the mock was
   * told to say, not what it does. Replay neither sends nor judges it.
   */
  forced?: true;
  /**
   * The test changed the mock's data outside the API since the exchange before this one (with
   * `mock.db`, factories, a load): what the consumer saw from here on rests on writes no
   * recording holds. Replay judges nothing of its test from here.
   */
  afterOutsideChange?: true;
  /**
   * The answer's JSON body was larger than a recording keeps (`answers-mock --record` keeps
   * bodies of at most 1 MiB), so `response` is left out.
   */
  responseLeftOut?: true;
}

/** The exchanges of one consumer test, in the order they were answered. */
export interface RecordedSequence {
  /** The test's full name (`file > describe > it`), as the test runner gives it. */
  name: string;
  exchanges: RecordedExchange[];
}

export interface Recording {
  format: typeof RECORDING_FORMAT;
  sequences: RecordedSequence[];
}
