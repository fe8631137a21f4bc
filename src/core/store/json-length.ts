/** A string JSON writes with escapes: quotes, backslashes, control characters, surrogates. */
// eslint-disable-next-line no-control-regex -- control characters are what JSON escapes
const NEEDS_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/;

/** The length of a string's JSON text, in UTF-16 code units. */
function stringLength(text: string): number {
  return NEEDS_ESCAPE.test(text) ? JSON.stringify(text).length : text.length + 2;
}

/**
 * `JSON.stringify(value)?.length ?? 0` (UTF-16 code units, what the storage limit counts),
 * without building the text.
 * @note Every object a load takes is sized for the storage limit, and every change sizes the
 * content before and after: a string built only to read its length showed in a load's profile,
 * and this walk takes less time than building it for typical content. Anything but strings, numbers,
 * booleans, null, and plain objects and arrays without `toJSON`, is sized by `JSON.stringify`
 * itself, so the answer is always the one it gives (`test/unit/json-length.node.test.ts`).
 */
export function jsonLength(value: unknown): number {
  return lengthOf(value) ?? 0;
}

/** `JSON.stringify(value)?.length`: undefined where JSON writes nothing (`null` in arrays). */
function lengthOf(value: unknown): number | undefined {
  switch (typeof value) {
    case 'string':
      return stringLength(value);
    case 'number':
      return Number.isFinite(value) ? String(value).length : 4;
    case 'boolean':
      return value ? 4 : 5;
    case 'object':
      break;
    default:
      return JSON.stringify(value)?.length;
  }
  if (value === null) return 4;
  if (typeof (value as { toJSON?: unknown }).toJSON === 'function')
    return JSON.stringify(value)?.length;
  if (Array.isArray(value)) {
    // @note "[" and "]", a comma between items, and `null` for what JSON cannot write.
    let length = 1 + Math.max(value.length, 1);
    for (let i = 0; i < value.length; i++) length += lengthOf(value[i]) ?? 4;
    return length;
  }
  const prototype = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) return JSON.stringify(value)?.length;
  // @note "{" and "}", `"key":value` per member JSON writes, a comma between members.
  let length = 2;
  let members = 0;
  // @note `for in` with `hasOwn`, not `Object.keys`: the same keys in the same order, without an
  // array per object sized (one per object of a load).
  for (const key in value) {
    if (!Object.hasOwn(value, key)) continue;
    const item = lengthOf((value as Record<string, unknown>)[key]);
    if (item === undefined) continue;
    length += stringLength(key) + 1 + item;
    members += 1;
  }
  return members === 0 ? 2 : length + members - 1;
}
