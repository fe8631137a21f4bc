/**
 * The request journal: what each API request asked and what the mock answered, in order, in a
 * bounded ring (the oldest entry goes when it is full), so that a developer whose app got a 401
 * can see which request it sent, with which key role, and what came back. Never a key: the key
 * is shown by role and masked; bodies only when asked, cut short, with every key replaced by its
 * role. Cleared by `reset`. Read by `mock.controls.requests()` and `GET /__mock/requests`.
 */
import { maskApiKey, type ApiKey } from './api-key.ts';
import type { HandledRequest, MockRequest } from './http.ts';
import type { JournalEntry, JournalFilter } from './mock.ts';
import { keyRole } from './recorder.ts';

/** The entries a journal keeps by default: a few MB, a day of a developer's clicking. */
export const DEFAULT_JOURNAL_SIZE = 10_000;
/** The most entries a journal may keep. */
export const MAX_JOURNAL_SIZE = 1_000_000;
/** The most characters of a body a journal keeps, with `journalBodies`. */
const BODY_CHARS = 4_096;

/** A body as the journal keeps it: text, cut short, every key of the mock replaced by its role. */
function keptBody(text: string | undefined, keys: readonly ApiKey[]): string | undefined {
  if (text === undefined || text === '') return undefined;
  let kept = text.length > BODY_CHARS ? `${text.slice(0, BODY_CHARS)}…` : text;
  for (const { key } of keys)
    if (kept.includes(key)) kept = kept.replaceAll(key, `<${keyRole(key, keys)} key>`);
  return kept;
}

function problemCode(handled: HandledRequest): string | undefined {
  const { status, body } = handled.response;
  if (status < 400 || body === undefined) return undefined;
  try {
    const code = (JSON.parse(body) as { code?: unknown }).code;
    return typeof code === 'string' ? code : undefined;
  } catch {
    return undefined;
  }
}

/** A bounded, ordered record of the API requests a mock answered. */
export class Journal {
  readonly #ring: JournalEntry[] = [];
  #start = 0;
  #seq = 0;
  readonly #listeners = new Set<(entry: JournalEntry) => void>();

  constructor(
    readonly size: number,
    readonly bodies: boolean,
  ) {}

  /** Keeps one answered request (a journal of size 0 keeps nothing). */
  add(
    request: MockRequest,
    handled: HandledRequest,
    timing: { at: number; ms: number; latencyMs: number },
    keys: readonly ApiKey[],
  ): void {
    if (this.size === 0) return;
    const presented = handled.presentedKey;
    const entry: JournalEntry = {
      seq: (this.#seq += 1),
      at: new Date(timing.at).toISOString(),
      method: request.method.toUpperCase(),
      path: request.path,
      ...(handled.operation ? { operation: handled.operation.operationId } : {}),
      key: keyRole(presented, keys),
      ...(presented !== undefined ? { maskedKey: maskApiKey(presented) } : {}),
      status: handled.response.status,
      ...(problemCode(handled) !== undefined ? { code: problemCode(handled) } : {}),
      ms: Math.round(timing.ms * 10) / 10,
      ...(handled.forced || timing.latencyMs > 0
        ? {
            forced: {
              ...(handled.forced ? { how: handled.forced } : {}),
              ...(timing.latencyMs > 0 ? { latencyMs: timing.latencyMs } : {}),
            },
          }
        : {}),
      ...(this.bodies
        ? {
            requestBody: keptBody(
              request.body && !request.bodyTooLarge
                ? new TextDecoder().decode(request.body)
                : undefined,
              keys,
            ),
            responseBody: keptBody(handled.response.body, keys),
          }
        : {}),
    };
    if (this.#ring.length < this.size) this.#ring.push(entry);
    else {
      this.#ring[this.#start] = entry;
      this.#start = (this.#start + 1) % this.size;
    }
    for (const listener of this.#listeners) listener(entry);
  }

  /** The entries kept, oldest first, that match `filter`. */
  list(filter: JournalFilter = {}): JournalEntry[] {
    const ordered = [...this.#ring.slice(this.#start), ...this.#ring.slice(0, this.#start)];
    return ordered.filter(
      (entry) =>
        (filter.operation === undefined || entry.operation === filter.operation) &&
        (filter.status === undefined || entry.status === filter.status) &&
        (filter.since === undefined || entry.seq > filter.since),
    );
  }

  /** Forgets every entry; the next is `seq` 1 again. */
  clear(): void {
    this.#ring.length = 0;
    this.#start = 0;
    this.#seq = 0;
  }

  /** Calls `listener` with each entry as it is kept; returns how to stop. */
  subscribe(listener: (entry: JournalEntry) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }
}
