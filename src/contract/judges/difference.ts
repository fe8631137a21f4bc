/**
 * Where two JSON values first part, as a message shows it: the JSON pointer (RFC 6901) of the
 * first place they differ, for two strings the offset where they part, and both values around
 * it. Pure: a judge and a report call it alike.
 *
 * @note Offsets count code points, not UTF-16 units: a character outside the Basic Multilingual
 * Plane (😀, 𝔘) is one, so a window never cuts a surrogate pair in two and an offset means the
 * same in any language. A combining mark (the U+0301 of "e" + U+0301) is a code point of its own:
 * "é" written as one code point and as two part at the "e".
 */

/** The first place two values differ. */
export interface Difference {
  /** RFC 6901: `""` for the whole value, `/a/0/b~1c` for key `b/c` of item 0 of key `a`. */
  pointer: string;
  /** Where two strings at `pointer` part, in code points; absent when they are not both strings. */
  offset?: number;
  /** The expected side around the difference: JSON text, `…` where it is cut; `(absent)` if none. */
  expected: string;
  /** The actual side, shown the same way. */
  actual: string;
  /** Where two strings part, the code point each has there (`U+00E9`), or `end` where it ended. */
  at?: { expected: string; actual: string };
}

/** How many code points of a string a window shows on each side of where two strings part. */
export const CONTEXT = 24;
/** The longest JSON text shown of a value that is not a string (an object, a number). */
const LONGEST = 80;
const ABSENT = '(absent)';

/** One step of a pointer (RFC 6901 section 3: `~` as `~0`, `/` as `~1`). */
function token(key: string | number): string {
  return `/${String(key).replaceAll('~', '~0').replaceAll('/', '~1')}`;
}

function kind(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

/** A value's JSON text, cut at `LONGEST` characters. */
function shown(value: unknown): string {
  if (value === undefined) return ABSENT;
  const text = JSON.stringify(value) ?? String(value);
  return text.length > LONGEST ? `${text.slice(0, LONGEST)}…` : text;
}

/** The code points `from` to `to` of `points` as JSON text, `…` marking either end cut off. */
function windowOf(points: readonly string[], from: number, to: number): string {
  const text = JSON.stringify(points.slice(from, to).join(''));
  const quoted = text.slice(1, -1);
  return `"${from > 0 ? '…' : ''}${quoted}${to < points.length ? '…' : ''}"`;
}

/** Two strings that differ: where, in code points, and each side around it. */
function strings(pointer: string, expected: string, actual: string): Difference {
  const a = Array.from(expected);
  const b = Array.from(actual);
  let offset = 0;
  while (offset < a.length && offset < b.length && a[offset] === b[offset]) offset++;
  const from = Math.max(0, offset - CONTEXT);
  return {
    pointer,
    offset,
    expected: windowOf(a, from, offset + CONTEXT),
    actual: windowOf(b, from, offset + CONTEXT),
    at: { expected: pointName(a[offset]), actual: pointName(b[offset]) },
  };
}

/**
 * The first place `expected` and `actual` differ, or `undefined` where they are the same JSON
 * (objects compare key by key, in any order). Arrays go item by item, the first missing or extra
 * item where one is longer; objects go by the expected keys in their order, then the actual's
 * extra keys; values of different kinds differ where they stand.
 */
export function firstDifference(
  expected: unknown,
  actual: unknown,
  pointer = '',
): Difference | undefined {
  if (expected === undefined && actual === undefined) return undefined;
  if (kind(expected) !== kind(actual))
    return { pointer, expected: shown(expected), actual: shown(actual) };
  if (typeof expected === 'string') {
    return expected === actual ? undefined : strings(pointer, expected, actual as string);
  }
  if (Array.isArray(expected)) {
    const other = actual as unknown[];
    const length = Math.max(expected.length, other.length);
    for (let i = 0; i < length; i++) {
      const found = firstDifference(expected[i], other[i], `${pointer}${token(i)}`);
      if (found) return found;
    }
    return undefined;
  }
  if (expected !== null && typeof expected === 'object') {
    const a = expected as Record<string, unknown>;
    const b = actual as Record<string, unknown>;
    const own = (record: Record<string, unknown>, key: string) =>
      Object.hasOwn(record, key) ? record[key] : undefined;
    const keys = [...Object.keys(a), ...Object.keys(b).filter((key) => !Object.hasOwn(a, key))];
    for (const key of keys) {
      const found = firstDifference(own(a, key), own(b, key), `${pointer}${token(key)}`);
      if (found) return found;
    }
    return undefined;
  }
  return expected === actual
    ? undefined
    : { pointer, expected: shown(expected), actual: shown(actual) };
}

/** A code point as Unicode names it (`U+00E9`), or `end` past a string's last. */
function pointName(point: string | undefined): string {
  return point === undefined
    ? 'end'
    : `U+${point.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
}

/**
 * A difference as a message tells it: `at /long, character 5000 (counted in code points): what
 * was sent has "…abc…" (U+00FC), the target "…ab…" (U+FFFD)`.
 */
export function tellDifference(difference: Difference, expectedBy: string): string {
  const { pointer, offset, at } = difference;
  const where = pointer === '' ? '' : `at ${pointer}`;
  const point = (name: string | undefined) =>
    name === undefined ? '' : name === 'end' ? ' (its end)' : ` (${name})`;
  const sides = `${expectedBy} has ${difference.expected}${point(at?.expected)}, the target ${difference.actual}${point(at?.actual)}`;
  if (offset === undefined) return where ? `${where}: ${sides}` : sides;
  return `${where ? `${where}, ` : ''}character ${offset} (counted in code points): ${sides}`;
}
