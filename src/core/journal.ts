/**
 * The request journal: what each API request asked and what the mock answered, in order, in a
 * bounded ring (the oldest entry goes when it is full), so that a developer whose app got a 401
 * can see which request it sent, with which key role, and what came back. Never a key: the key
 * is shown by role and masked; bodies only when asked, cut short, with every key replaced by its
 * role. Cleared by `reset`. Read by `mock.controls.requests()` and `GET /__mock/requests`, and
 * watched live by `GET /__mock/requests/stream` (journal-stream.ts).
 */
import { keyRole, maskApiKey, type ApiKey } from './api-key.ts';
import type { HandledRequest, MockRequest } from './http.ts';
import type { KeyRole } from '../openapi/recording.ts';
import type { JournalEntry, JournalFilter } from './mock.ts';

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

/**
 * An entry as it is kept: what the request and answer were, formatted only when read (the ISO
 * time, the masked key), so that keeping one costs a request almost nothing. One shape for all.
 */
interface Kept {
  seq: number;
  at: number;
  method: string;
  path: string;
  operation: string | undefined;
  key: KeyRole;
  presented: string | undefined;
  status: number;
  code: string | undefined;
  ms: number;
  forced: string | undefined;
  latencyMs: number;
  requestBody: string | undefined;
  responseBody: string | undefined;
}

function entryOf(kept: Kept, bodies: boolean, origin: number): JournalEntry {
  const entry: JournalEntry = {
    seq: kept.seq,
    at: new Date(origin + kept.at).toISOString(),
    method: kept.method,
    path: kept.path,
    key: kept.key,
    status: kept.status,
    ms: Math.round(kept.ms * 10) / 10,
  };
  if (kept.operation !== undefined) entry.operation = kept.operation;
  if (kept.presented !== undefined) entry.maskedKey = maskApiKey(kept.presented);
  if (kept.code !== undefined) entry.code = kept.code;
  if (kept.forced !== undefined || kept.latencyMs > 0)
    entry.forced = {
      ...(kept.forced !== undefined ? { how: kept.forced } : {}),
      ...(kept.latencyMs > 0 ? { latencyMs: kept.latencyMs } : {}),
    };
  if (bodies) {
    entry.requestBody = kept.requestBody;
    entry.responseBody = kept.responseBody;
  }
  return entry;
}

/** Told of each entry as it is kept, and of the journal being cleared (`undefined`). */
type JournalWatcher = (entry: JournalEntry | undefined) => void;

/** A bounded, ordered record of the API requests a mock answered. */
export class Journal {
  readonly #watchers = new Set<JournalWatcher>();
  /**
   * How many times it was cleared: a reader that resumes from a `seq` (a stream reconnecting)
   * tells by it whether that `seq` is of the entries kept now or of those a reset dropped.
   */
  #epoch = 0;
  readonly #ring: Kept[] = [];
  #start = 0;
  #seq = 0;
  /** Each key's role, for the keys it was worked out from (a load or reset brings others). */
  #roles = new Map<string | undefined, KeyRole>();
  /** The wall clock at `performance.now()`'s zero: an arrival's time, told only when read. */
  readonly #origin = Date.now() - performance.now();
  #rolesOf: readonly ApiKey[] | undefined;

  constructor(
    readonly size: number,
    readonly bodies: boolean,
  ) {}

  /** Keeps one answered request (a journal of size 0 keeps nothing). */
  add(
    request: MockRequest,
    handled: HandledRequest,
    /** When it arrived, on `performance.now()`'s clock. */
    began: number,
    latencyMs: number,
    keys: readonly ApiKey[],
  ): void {
    if (this.size === 0) return;
    const { status } = handled.response;
    const kept: Kept = {
      seq: (this.#seq += 1),
      at: began,
      method: request.method.toUpperCase(),
      path: request.path,
      operation: handled.operation?.operationId,
      key: this.#roleOf(handled.presentedKey, keys),
      presented: handled.presentedKey,
      status,
      code: status >= 400 ? problemCode(handled) : undefined,
      ms: performance.now() - began,
      forced: handled.forced,
      latencyMs,
      requestBody: this.bodies
        ? keptBody(
            request.body && !request.bodyTooLarge
              ? new TextDecoder().decode(request.body)
              : undefined,
            keys,
          )
        : undefined,
      responseBody: this.bodies ? keptBody(handled.response.body, keys) : undefined,
    };
    if (this.#ring.length < this.size) this.#ring.push(kept);
    else {
      this.#ring[this.#start] = kept;
      this.#start = (this.#start + 1) % this.size;
    }
    // @note Formatted here only when someone watches: keeping an entry stays a push.
    if (this.#watchers.size > 0) {
      const entry = entryOf(kept, this.bodies, this.#origin);
      for (const watcher of this.#watchers) watcher(entry);
    }
  }

  /** Calls `watcher` with each entry kept from now on; returns how to stop. */
  watch(watcher: JournalWatcher): () => void {
    this.#watchers.add(watcher);
    return () => this.#watchers.delete(watcher);
  }

  /** How many times the journal was cleared since the mock started. */
  get epoch(): number {
    return this.#epoch;
  }

  #roleOf(presented: string | undefined, keys: readonly ApiKey[]): KeyRole {
    if (keys !== this.#rolesOf) {
      this.#roles = new Map();
      this.#rolesOf = keys;
    }
    let role = this.#roles.get(presented);
    if (role === undefined) {
      role = keyRole(presented, keys);
      // @note Bounded: a client trying random keys must not grow it without end.
      if (this.#roles.size < 1_000) this.#roles.set(presented, role);
    }
    return role;
  }

  /** The entries kept, oldest first, that match `filter`. */
  list(filter: JournalFilter = {}): JournalEntry[] {
    const ordered = [...this.#ring.slice(this.#start), ...this.#ring.slice(0, this.#start)];
    return ordered
      .filter(
        (kept) =>
          (filter.operation === undefined || kept.operation === filter.operation) &&
          (filter.status === undefined || kept.status === filter.status) &&
          (filter.since === undefined || kept.seq > filter.since),
      )
      .map((kept) => entryOf(kept, this.bodies, this.#origin));
  }

  /** Forgets every entry; the next is `seq` 1 again. */
  clear(): void {
    this.#ring.length = 0;
    this.#start = 0;
    this.#seq = 0;
    this.#epoch += 1;
    for (const watcher of this.#watchers) watcher(undefined);
  }
}
