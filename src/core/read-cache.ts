import type { MockRequest, MockResponse } from './http.ts';

/** How many answers are kept at most; past it the cache starts again empty. */
const MAX_ANSWERS = 256;
/** The longest body kept (UTF-16 code units): large pages are answered afresh. */
const MAX_BODY = 64 * 1024;

/** What is kept of a request: its response, and what caused it when it is a 500. */
interface Answer {
  readonly response: MockResponse;
  readonly internal?: unknown;
}

/** What a cached answer must have been computed from: a store at a version. */
interface Versioned {
  readonly version: number;
}

/**
 * Answers of repeated reads, kept while the data they were computed from is unchanged: a GET
 * with the same path, query and credentials, asked again before any write, is answered with the
 * answer computed the first time, skipping routing, the key check, validation and the operation.
 *
 * @note What makes a read's answer: the request's path, query and credentials (so the key is
 * part of the cache key: one account never sees another's answer), and the store (its records
 * and API keys), which every write, load and reset changes (`Store.version`, and a new store on
 * load). Nothing else goes in: `Prefer` asks for a forced error and a queued failure must be
 * taken, so neither is answered from here (`readKey`, `RequestHooks.failuresQueued`); latency is
 * waited outside. Only answers below 500 with a whole, small body are kept, frozen, so nothing
 * can change an answer after it is kept.
 * @note Over loopback the mock's own code costs two to three times what it costs in a warm loop
 * (docs/performance.md, "Hot path"): the saving is less code per request, not faster code.
 */
export class ReadCache<T extends Answer = Answer> {
  #answers = new Map<string, T>();
  #store: Versioned | undefined;
  #version = -1;

  /** The answer kept for `key` at the store's current version, if any. */
  get(store: Versioned, key: string): T | undefined {
    if (store !== this.#store || store.version !== this.#version) {
      if (this.#answers.size > 0) this.#answers = new Map();
      this.#store = store;
      this.#version = store.version;
      return undefined;
    }
    return this.#answers.get(key);
  }

  /**
   * Keeps `handled` for `key` when it is an answer with a small whole body and not a 5xx: a read's
   * 200, and its refusals (401, 404, 400), which depend on nothing else either.
   */
  keep(store: Versioned, key: string, handled: T): void {
    const { response } = handled;
    if (store !== this.#store || store.version !== this.#version) return;
    if (response.status >= 500 || handled.internal !== undefined) return;
    if (response.pieces !== undefined) return;
    if (response.body === undefined || response.body.length > MAX_BODY) return;
    if (this.#answers.size >= MAX_ANSWERS) this.#answers = new Map();
    Object.freeze(response.headers);
    Object.freeze(response);
    this.#answers.set(key, Object.freeze(handled));
  }
}

/**
 * The cache key of a read, or undefined when the request must not be answered from the cache:
 * not a GET, carrying a body (which reads ignore, but is rare enough to answer afresh), or asking
 * for a forced error with `Prefer`.
 * @note The query as parsed and written again: two spellings of the same parameters share an
 * answer, as they share every check.
 */
export function readKey(request: MockRequest): string | undefined {
  if (request.method !== 'GET' || request.body !== undefined || request.bodyTooLarge) {
    return undefined;
  }
  const { headers } = request;
  if (headers.get('prefer') !== null) return undefined;
  const authorization = field(headers.get('authorization'));
  const apiKey = field(headers.get('x-answers-api-key'));
  return `${request.path}?${request.query.toString()}\n${authorization}\n${apiKey}`;
}

/**
 * A way of presenting a key, as sent (a request may carry either, or both), an absent field told
 * apart from an empty one (which is refused). Field values hold neither NUL nor newline.
 */
const field = (value: string | null): string => value ?? '\u0000';
