/** How two JSON values are compared and shown in a verdict's message. */

/** A JSON value with object keys sorted, for comparing what was sent with what came back. */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value && typeof value === 'object')
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((key) => [key, canonical((value as Record<string, unknown>)[key])]),
    );
  return value;
}

export function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(canonical(a)) === JSON.stringify(canonical(b));
}

/** A value as a message shows it: its JSON, cut at 120 characters. */
export function short(value: unknown): string {
  const text = JSON.stringify(value) ?? 'undefined';
  return text.length > 120 ? `${text.slice(0, 120)}…` : text;
}

/** What two values are, side by side, where they differ. */
export function apart(expectedBy: string, expected: unknown, actual: unknown): string {
  return `${expectedBy} has ${short(expected)}, the target ${short(actual)}`;
}
