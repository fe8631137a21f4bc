/**
 * The bounds of the control API: each is documented in docs/robustness.md, and a value past one
 * is refused with 400 `invalid_control_request` naming the bound, never queued or applied.
 */

/** The most objects a mock holds by default (`maxObjects`). @see docs/spec-gaps.md GAP-LIMIT-STORE */
export const DEFAULT_MAX_OBJECTS = 2_000_000;
/** The most stored JSON, in UTF-16 code units, by default (`maxStoredBytes`): 1 GiB. */
export const DEFAULT_MAX_STORED_BYTES = 1024 ** 3;
/**
 * The most distinct search words the objects may hold by default (`maxWords`).
 * @note The vocabulary is a `Map`, which V8 caps at {@link V8_MAP_CAP} entries: past it every
 * write bringing a new word threw, for every account, until a reset. Half the cap leaves room
 * for the words a write brings beyond a limit checked conservatively, and keeps the vocabulary's
 * memory (about 100 bytes a word with its posting rows) under a gigabyte.
 */
export const DEFAULT_MAX_WORDS = 8_000_000;
/** The most entries V8 lets a `Map` hold (2^24): every limit on a map's size stays below it. */
export const V8_MAP_CAP = 16_777_216;

/**
 * The limit on distinct search words a mock holds to: `maxWords`, and never V8's cap, whatever
 * `maxWords` says (a load of 17 million words answered 500 "Map maximum size exceeded").
 */
export function wordLimit(maxWords: number): number {
  return Math.min(maxWords, V8_MAP_CAP - 1);
}

/** How many times one queued failure may repeat. */
export const MAX_FAILURE_TIMES = 10_000;
/** How many different failures (status runs) may wait per operation. */
export const MAX_FAILURE_RUNS = 100;
/** The longest latency, in ms (ten minutes). */
export const MAX_LATENCY_MS = 600_000;
/** The latest instant the clock may show: the end of year 9999, the last RFC 3339 can write. */
export const MAX_INSTANT_MS = Date.parse('9999-12-31T23:59:59.999Z');
/** The earliest instant: the start of year 0000 is RFC 3339's floor; the API's dates are after 1970. */
export const MIN_INSTANT_MS = 0;

/**
 * The deepest nesting of objects and arrays a JSON request body may have (the body itself is
 * level 1). Deeper bodies would overflow the stack of recursive code further on.
 * @see docs/spec-gaps.md GAP-LIMIT-SIZE
 */
export const MAX_JSON_DEPTH = 64;
