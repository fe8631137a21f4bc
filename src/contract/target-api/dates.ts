/**
 * Creation dates as a target may write them: RFC 3339 strings, or numbers of epoch seconds or
 * milliseconds (told apart by size: 1e11 seconds is the year 5138, 1e11 ms is 1973).
 */

const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

/** The instant a date value stands for, in ms since the epoch, or undefined when it is none. */
export function instantOf(value: unknown): number | undefined {
  if (typeof value === 'number') {
    if (!Number.isFinite(value) || value < 0) return undefined;
    return value < 1e11 ? value * 1000 : value;
  }
  if (typeof value === 'string') {
    if (/^\d+(\.\d+)?$/.test(value)) return instantOf(Number(value));
    if (!RFC3339.test(value)) return undefined;
    const ms = Date.parse(value.replace(' ', 'T'));
    return Number.isNaN(ms) ? undefined : ms;
  }
  return undefined;
}
