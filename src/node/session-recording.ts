/**
 * `answers-mock --record FILE`: what the mock answers in a dev session, appended to a recording
 * of the lines form as it goes (recording-file.ts). Each API exchange is written before its
 * answer is sent, so a `kill -9` loses nothing a client saw (a write's line is synced first);
 * one that cannot be written (a full disk, the file at its bound) is answered 507 instead, so
 * every exchange a client saw succeed is in the recording. Only the line of each exchange is held, never the recording: the mock's
 * memory does not grow with the session.
 */
import type { ApiKey } from '../core/api-key.ts';
import type { HandledRequest } from '../core/http.ts';
import type { AnswersMock } from '../core/mock.ts';
import { recordExchanges, type ExchangeSink } from '../core/recorder.ts';
import {
  MAX_RECORDING_BYTES,
  MAX_RECORDING_EXCHANGES,
  type RecordedExchange,
} from '../openapi/recording.ts';
import { notKept } from './not-kept.ts';
import { RecordingFile, RecordingFullError, type RecordingFileOptions } from './recording-file.ts';

/** Methods that change nothing: their lines are written, and synced with the next write's. */
const READS = new Set(['GET', 'HEAD']);

/** Whether an exchange changed the mock's data: a write it accepted (2xx). */
const wrote = (exchange: RecordedExchange) =>
  !READS.has(exchange.method) && exchange.status >= 200 && exchange.status < 300;

/** The default bound of a `--record` file: the largest recording replay reads (64 MiB). */
export const DEFAULT_MAX_RECORDING_BYTES = MAX_RECORDING_BYTES;

export interface SessionRecording {
  mock: AnswersMock;
  /** The file written: the path given, its symbolic links followed. */
  file: string;
  /** Waits for the writes under way and closes the file. */
  close(): Promise<void>;
}

/** Options of {@link startSessionRecording}. */
export interface SessionRecordingOptions extends Partial<
  Pick<RecordingFileOptions, 'force' | 'forbidden' | 'openFile'>
> {
  /** The most bytes the file may reach. Default {@link DEFAULT_MAX_RECORDING_BYTES}. */
  maxBytes?: number | undefined;
  /** Told when the file cannot be written, once until it can again. Default: stderr. */
  onError?: ((message: string) => void) | undefined;
}

/**
 * Records what `mock` answers into `file`, a sequence per start (named by when it started). The
 * file is checked, and written or continued, at once: a path that cannot be written, or must not
 * be, fails here, at start (recording-file.ts), not at the first request.
 */
export async function startSessionRecording(
  file: string,
  mock: AnswersMock,
  keys: () => readonly ApiKey[],
  data: () => readonly unknown[],
  options: SessionRecordingOptions = {},
): Promise<SessionRecording> {
  const recording = await RecordingFile.open(file, {
    maxBytes: options.maxBytes ?? DEFAULT_MAX_RECORDING_BYTES,
    maxExchanges: MAX_RECORDING_EXCHANGES,
    force: options.force,
    forbidden: options.forbidden,
    openFile: options.openFile,
  });
  const onError =
    options.onError ?? ((message: string) => console.error(`answers-mock: ${message}`));
  const sequence = `answers-mock session, started ${new Date().toISOString()}`;
  let failing = false;
  const refused = (error: Error): HandledRequest => {
    const full = error instanceof RecordingFullError;
    if (!failing)
      onError(
        `--record ${file}: ${full ? 'full' : ((error as NodeJS.ErrnoException).code ?? error.message)}; API requests are answered 507 until an exchange can be written`,
      );
    failing = true;
    return {
      response: notKept(
        `The recording ${file}`,
        full ? new Error(`full: ${error.message}`) : error,
        // @note The request itself was answered by the mock: a write may have been made.
        'this answer is withheld (the request may have taken effect); free the space or restart the mock with another --record file',
      ),
    };
  };
  const keep: ExchangeSink = (name, exchange, handled) =>
    recording
      // @note A write the mock accepted is synced before it is answered, as the state file
      // syncs it; any other exchange (a read, a refusal) is written (a `kill -9` loses none)
      // and synced with the next write. A power cut may lose what came after the last write,
      // never a write: the recording stays one replay can run.
      .append(`${JSON.stringify({ sequence: name, exchange })}\n`, wrote(exchange))
      .then(
        () => {
          if (failing) onError(`--record ${file}: written again`);
          failing = false;
          return { answer: handled, kept: true };
        },
        (error: Error) => ({ answer: refused(error), kept: false }),
      );
  return {
    mock: recordExchanges(mock, keys, keep, {
      testName: () => sequence,
      data,
      bodies: 'replayed',
    }),
    file: recording.file,
    close: () => recording.close(),
  };
}
