/**
 * Header fields read from Node's raw list (`req.rawHeaders`: name, value, name, value ...), one
 * name at a time.
 * @note Not `req.headers` or `req.headersDistinct`: each is built whole, every field of the
 * request, the first time it is read, and the server reads four or five fields of a request. The
 * raw list is the parser's own, so a lookup allocates nothing but the values it returns.
 */

/** Whether a field name as sent equals `lower` (lower case, letters, digits and `-`). */
function isName(sent: string, lower: string): boolean {
  if (sent.length !== lower.length) return false;
  for (let i = 0; i < lower.length; i++) {
    const expected = lower.charCodeAt(i);
    const actual = sent.charCodeAt(i);
    // @note Only letters fold: `A`..`Z` is 32 below `a`..`z`.
    if (actual !== expected && !(expected >= 97 && expected <= 122 && actual === expected - 32)) {
      return false;
    }
  }
  return true;
}

/** Every value of the field `name` (lower case), in the order sent; empty when absent. */
export function headerValues(raw: readonly string[], name: string): string[] {
  const values: string[] = [];
  for (let i = 0; i + 1 < raw.length; i += 2) if (isName(raw[i]!, name)) values.push(raw[i + 1]!);
  return values;
}

/**
 * The field `name` (lower case) as one value, repeats joined with ", " (RFC 9110 §5.3), or
 * `undefined` when absent.
 */
export function headerValue(raw: readonly string[], name: string): string | undefined {
  let value: string | undefined;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    if (isName(raw[i]!, name))
      value = value === undefined ? raw[i + 1]! : `${value}, ${raw[i + 1]}`;
  }
  return value;
}
