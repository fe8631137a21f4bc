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

/** What a cached answer must have been computed from: a store at a version, a clock as set. */
interface Source {
  readonly store: { readonly version: number };
  readonly clock: { readonly changes: number };
}

/**
 * Answers of repeated reads, kept while what they were computed from is unchanged: a GET with
 * the same path, query and credentials, asked again before any change, is answered with the
 * answer computed the first time, skipping routing, the key check, validation and the operation.
 *
 * @note Correct by construction: the cache key is all of the request a read's answer depends on
 * (path, query and credentials, so one account never sees another's answer), and every answer
 * is dropped at once when anything else it could depend on changes: the store (its records and
 * API keys: every write, load and reset changes `Store.version`, a load makes a new store) or
 * the clock (set, advanced or let go). Nothing else goes in: `Prefer` asks for a forced error and
 * a queued failure must be taken, so neither is answered from here (`readKey`,
 * `RequestHooks.failuresQueued`); latency is waited outside. Only answers below 500 with a whole,
 * small body are kept, frozen, so nothing can change an answer after it is kept. It earns its
 * place in the bench (docs/decisions/one-way-to-answer.md).
 */
export class ReadCache<T extends Answer = Answer> {
  #answers = new Map<string, T>();
  #store: object | undefined;
  #version = -1;
  #clock = -1;

  #current({ store, clock }: Source): boolean {
    return (
      store === this.#store && store.version === this.#version && clock.changes === this.#clock
    );
  }

  /** The answer kept for `key` from the source as it is now, if any. */
  get(source: Source, key: string): T | undefined {
    if (!this.#current(source)) {
      if (this.#answers.size > 0) this.#answers = new Map();
      this.#store = source.store;
      this.#version = source.store.version;
      this.#clock = source.clock.changes;
      return undefined;
    }
    return this.#answers.get(key);
  }

  /**
   * Keeps `handled` for `key` when it is an answer with a small whole body and not a 5xx: a read's
   * 200, and its refusals (401, 404, 400), which depend on nothing else either.
   */
  keep(source: Source, key: string, handled: T): void {
    const { response } = handled;
    if (!this.#current(source)) return;
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
