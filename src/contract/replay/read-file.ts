/**
 * Reading what `replay` is given: a recording (`answers-recording/1`, one JSON document, as
 * `setupAnswersServer` writes it; or `answers-recording-lines/1`, JSON Lines, as
 * `answers-mock --record` appends it) or a HAR 1.2 file (browser DevTools, Playwright's
 * `recordHar`). A file that is not one of them, truncated, too large or too deep ends the run
 * with one line (exit 2), read within bounded memory: its size is known before a byte is parsed,
 * and either form is held to the same bounds (size, depth, exchanges).
 */
import { open } from 'node:fs/promises';
import {
  MAX_RECORDING_BYTES,
  MAX_RECORDING_EXCHANGES,
  RECORDING_FORMAT,
  RECORDING_LINES_FORMAT,
  type KeyRole,
  type RecordedExchange,
  type RecordedSequence,
  type Recording,
} from '../../openapi/recording.ts';
import { nestsDeeperThan } from '../../openapi/json-depth.ts';
import { LIMITS } from '../limits.ts';
import { harRecording, type HarReading } from './har.ts';

/** A file `replay` cannot read: exit 2, with this one line. */
export class ReplayFileError extends Error {
  override name = 'ReplayFileError';
}

/** The largest file replay reads: a recording of 100,000 exchanges is far smaller. */
export const MAX_REPLAY_FILE_BYTES = MAX_RECORDING_BYTES;
/** The most exchanges one file may hold, over every sequence. */
export const MAX_REPLAY_EXCHANGES = MAX_RECORDING_EXCHANGES;
/** The deepest JSON value a recorded body may be: deeper is not a request an app sends. */
const MAX_DEPTH = LIMITS.maxRecordedDepth;

const ROLES: readonly KeyRole[] = [
  'full',
  'readonly',
  'otherAccount',
  'inactive',
  'none',
  'unknown',
];

/** Reads `path` whole, refusing a file past `MAX_REPLAY_FILE_BYTES` before reading it. */
async function readBounded(path: string): Promise<string> {
  let file;
  try {
    file = await open(path, 'r');
  } catch (error) {
    throw new ReplayFileError(
      `cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
    );
  }
  try {
    const { size, isFile } = await file.stat().then((s) => ({ size: s.size, isFile: s.isFile() }));
    if (!isFile) throw new ReplayFileError(`${path} is not a file`);
    if (size > MAX_REPLAY_FILE_BYTES)
      throw new ReplayFileError(
        `${path} is ${size} bytes; replay reads files of at most ${MAX_REPLAY_FILE_BYTES} bytes (split the recording)`,
      );
    return await file.readFile('utf8');
  } finally {
    await file.close();
  }
}

function invalid(path: string, where: string, why: string): ReplayFileError {
  return new ReplayFileError(`${path} is not a recording replay can read: ${where} ${why}`);
}

/** A recording file's sequences, each exchange checked for the shape replay relies on. */
function recordingOf(path: string, value: Record<string, unknown>): Recording {
  if (!Array.isArray(value.sequences)) throw invalid(path, 'sequences', 'is not a list');
  let count = 0;
  const sequences: RecordedSequence[] = value.sequences.map((sequence: unknown, s: number) => {
    const at = `sequences[${s}]`;
    const { name, exchanges } = (sequence ?? {}) as Record<string, unknown>;
    if (typeof name !== 'string' || name === '') throw invalid(path, `${at}.name`, 'is not a name');
    if (!Array.isArray(exchanges)) throw invalid(path, `${at}.exchanges`, 'is not a list');
    count += exchanges.length;
    if (count > MAX_REPLAY_EXCHANGES)
      throw invalid(path, at, `brings it past ${MAX_REPLAY_EXCHANGES} exchanges`);
    exchanges.forEach((exchange: unknown, e: number) =>
      checkExchange(path, `${at}.exchanges[${e}]`, exchange),
    );
    return { name, exchanges: exchanges as RecordedExchange[] };
  });
  return { format: RECORDING_FORMAT, sequences };
}

/** Whether `line` is the first line of a recording of the lines form. */
function isLinesHeader(line: string): boolean {
  try {
    return (JSON.parse(line) as { format?: unknown } | null)?.format === RECORDING_LINES_FORMAT;
  } catch {
    return false;
  }
}

/**
 * A recording of the lines form: after its first line, one `{ sequence, exchange }` per line;
 * the sequences in the order each first appears. A last line without its newline that does not
 * parse is one a killed mock left half-written: its exchange was never answered (the mock
 * answers once the line is written), so it is not read.
 */
function linesRecording(path: string, text: string): Recording {
  const lines = text.split('\n');
  const sequences = new Map<string, RecordedExchange[]>();
  let count = 0;
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.trim() === '') continue;
    const at = `line ${i + 1}`;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (error) {
      if (i === lines.length - 1) break;
      throw invalid(path, at, `is not JSON: ${(error as Error).message.slice(0, 120)}`);
    }
    const { sequence, exchange } = (value ?? {}) as Record<string, unknown>;
    if (typeof sequence !== 'string' || sequence === '')
      throw invalid(path, `${at}.sequence`, 'is not a name');
    count += 1;
    if (count > MAX_REPLAY_EXCHANGES)
      throw invalid(path, at, `brings it past ${MAX_REPLAY_EXCHANGES} exchanges`);
    checkExchange(path, `${at}.exchange`, exchange);
    const exchanges = sequences.get(sequence) ?? [];
    if (exchanges.length === 0) sequences.set(sequence, exchanges);
    exchanges.push(exchange as RecordedExchange);
  }
  return {
    format: RECORDING_FORMAT,
    sequences: [...sequences].map(([name, exchanges]) => ({ name, exchanges })),
  };
}

function checkExchange(path: string, at: string, value: unknown): void {
  const e = (value ?? {}) as Record<string, unknown>;
  const text = (field: string) => {
    if (typeof e[field] !== 'string') throw invalid(path, `${at}.${field}`, 'is not a string');
  };
  text('method');
  text('path');
  text('query');
  if (e.operation !== null && typeof e.operation !== 'string')
    throw invalid(path, `${at}.operation`, 'is neither an operationId nor null');
  if (!ROLES.includes(e.key as KeyRole))
    throw invalid(path, `${at}.key`, `is not one of ${ROLES.join(', ')}`);
  if (!Number.isInteger(e.status) || (e.status as number) < 100 || (e.status as number) > 599)
    throw invalid(path, `${at}.status`, 'is not an HTTP status');
  if (nestsDeeperThan(e.body, MAX_DEPTH) || nestsDeeperThan(e.response, MAX_DEPTH))
    throw invalid(path, at, `nests deeper than ${MAX_DEPTH} levels`);
}

/**
 * The recording `path` holds, or the one a HAR file makes (read through `har`'s description).
 * Throws {@link ReplayFileError} for anything else.
 */
export async function readReplayFile(path: string, har: HarReading): Promise<Recording> {
  const text = await readBounded(path);
  // @note Told by its first line: a recording of the lines form is not one JSON value.
  if (isLinesHeader(text.slice(0, text.indexOf('\n') + 1).slice(0, 1024)))
    return linesRecording(path, text);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new ReplayFileError(
      `${path} is not JSON (a truncated file?): ${(error as Error).message.slice(0, 120)}`,
    );
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new ReplayFileError(
      `${path} is neither a recording (${RECORDING_FORMAT}) nor a HAR file`,
    );
  const record = value as Record<string, unknown>;
  if (record.format === RECORDING_FORMAT) return recordingOf(path, record);
  if (record.format === RECORDING_LINES_FORMAT)
    return linesRecording(path, `${JSON.stringify(record)}\n`);
  if (typeof record.format === 'string')
    throw new ReplayFileError(
      `${path} is a recording of format ${record.format.slice(0, 40)}; this replay reads ${RECORDING_FORMAT} and ${RECORDING_LINES_FORMAT}`,
    );
  if (typeof record.log === 'object' && record.log !== null) {
    const recording = harRecording(path, record.log as Record<string, unknown>, har, invalid);
    const exchanges = recording.sequences.reduce((n, s) => n + s.exchanges.length, 0);
    if (exchanges > MAX_REPLAY_EXCHANGES)
      throw invalid(path, 'log.entries', `holds more than ${MAX_REPLAY_EXCHANGES} API exchanges`);
    for (const sequence of recording.sequences)
      sequence.exchanges.forEach((exchange, e) => checkExchange(path, `entry ${e}`, exchange));
    return recording;
  }
  throw new ReplayFileError(`${path} is neither a recording (${RECORDING_FORMAT}) nor a HAR file`);
}
