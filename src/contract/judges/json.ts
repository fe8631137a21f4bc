/** How two JSON values are compared and shown in a verdict's message. */
import type { ClauseId } from '../../generated/clauses.ts';
import { firstDifference, tellDifference } from './difference.ts';
import { diverged, type Verdict } from './verdict.ts';

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

/**
 * A divergence of two values, told where they first part (`firstDifference`): the pointer, for
 * strings the offset, and both values around it; never two prefixes cut at a fixed length, which
 * look alike when the difference is far into a long text.
 */
export function apart(
  clause: ClauseId,
  where: string,
  expectedBy: string,
  expected: unknown,
  actual: unknown,
): Verdict {
  const difference = firstDifference(expected, actual) ?? {
    pointer: '',
    expected: short(expected),
    actual: short(actual),
  };
  return diverged(clause, `${where}: ${tellDifference(difference, expectedBy)}`, difference);
}
