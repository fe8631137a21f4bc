/**
 * `GET /__mock/requests/stream`: the request journal live, as server-sent events, so that the
 * inspector page (and `curl -N`) sees each request as the mock answers it, without polling.
 *
 * - First a `hello` event (the journal's size, whether it keeps bodies), then the entries kept
 *   that the reader has not seen, then each new one as a `request` event, as it is kept.
 * - Each event's id is `<epoch>-<seq>`: a reader that reconnects (EventSource does, with
 *   `Last-Event-ID`) gets what it missed, or, when a reset came between, a `reset` event and
 *   the journal as it is now. A reset while connected is a `reset` event too.
 * - Bounded: a reader that takes nothing while more than {@link MAX_WAITING} events wait is
 *   ended (the mock never holds more for it); reconnecting, it resumes from the journal.
 * - A comment every {@link HEARTBEAT_MS} keeps proxies from closing a quiet stream, and lets the
 *   server notice a reader that is gone.
 */
import type { Journal } from './journal.ts';
import type { JournalEntry, JournalFilter } from './mock.ts';

/** The events that may wait for a slow reader before its stream is ended. */
const MAX_WAITING = 1_000;
/** How often a quiet stream says it is alive. */
const HEARTBEAT_MS = 15_000;
/** How long EventSource waits before reconnecting. */
const RETRY_MS = 1_000;

/** Where a reader's `Last-Event-ID` (or `since`) says it stopped: an epoch and a seq. */
interface StreamStart {
  epoch?: number | undefined;
  since?: number | undefined;
}

/** Reads a `Last-Event-ID` this stream wrote (`<epoch>-<seq>`); anything else is no position. */
export function streamStartOf(lastEventId: string | null): StreamStart | undefined {
  const match = lastEventId === null ? null : /^(\d{1,9})-(\d{1,16})$/.exec(lastEventId);
  return match ? { epoch: Number(match[1]), since: Number(match[2]) } : undefined;
}

function event(name: string, data: unknown, id?: string): string {
  return `${id === undefined ? '' : `id: ${id}\n`}event: ${name}\ndata: ${JSON.stringify(data)}\n\n`;
}

function matches(entry: JournalEntry, filter: JournalFilter): boolean {
  return (
    (filter.operation === undefined || entry.operation === filter.operation) &&
    (filter.status === undefined || entry.status === filter.status)
  );
}

/**
 * The stream of `journal` for one reader, as pieces of text (`MockResponse.pieces`): it ends only
 * when the reader goes (the adapter calls `return`) or falls too far behind.
 */
export function journalStream(
  journal: Journal,
  filter: JournalFilter,
  start: StreamStart = {},
): AsyncIterable<string> {
  const waiting: string[] = [];
  let wake: ((result: IteratorResult<string>) => void) | undefined;
  let ended = false;
  const entryEvent = (entry: JournalEntry) =>
    event('request', entry, `${journal.epoch}-${entry.seq}`);

  const push = (piece: string) => {
    if (ended) return;
    if (wake) {
      const resolve = wake;
      wake = undefined;
      resolve({ value: piece, done: false });
    } else if (waiting.length < MAX_WAITING) waiting.push(piece);
    // @note Too far behind: end the stream once what waits is taken; the reader reconnects.
    else stop();
  };
  const stop = () => {
    ended = true;
    unwatch();
    clearInterval(heartbeat);
    if (wake && waiting.length === 0) {
      const resolve = wake;
      wake = undefined;
      resolve({ value: undefined, done: true });
    }
  };

  const sameEpoch = start.epoch === undefined || start.epoch === journal.epoch;
  waiting.push(
    `retry: ${RETRY_MS}\n\n`,
    event('hello', { size: journal.size, bodies: journal.bodies, epoch: journal.epoch }),
  );
  if (!sameEpoch) waiting.push(event('reset', {}));
  for (const entry of journal.list({ ...filter, since: sameEpoch ? start.since : undefined }))
    waiting.push(entryEvent(entry));
  const unwatch = journal.watch((entry) => {
    if (entry === undefined) push(event('reset', {}));
    else if (matches(entry, filter)) push(entryEvent(entry));
  });
  const heartbeat = setInterval(() => push(': alive\n\n'), HEARTBEAT_MS);
  // @note A stream nobody reads must not keep a Node process (a test's) alive.
  (heartbeat as { unref?: () => void }).unref?.();

  const iterator: AsyncIterator<string> = {
    next: () => {
      const piece = waiting.shift();
      if (piece !== undefined) return Promise.resolve({ value: piece, done: false });
      if (ended) return Promise.resolve({ value: undefined, done: true });
      return new Promise((resolve) => (wake = resolve));
    },
    return: () => {
      waiting.length = 0;
      stop();
      return Promise.resolve({ value: undefined, done: true });
    },
  };
  return { [Symbol.asyncIterator]: () => iterator };
}
