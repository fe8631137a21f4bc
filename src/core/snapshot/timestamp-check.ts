/**
 * The pattern of `openapi.yaml`'s `Timestamp` (RFC 3339, UTC, milliseconds), as the snapshot
 * check uses it; `test/unit/timestamp-check.node.test.ts` keeps it equal to the document's.
 */
export const TIMESTAMP_PATTERN =
  '^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\\.[0-9]{3}Z$';

/** Days in each month of a common year, January first. */
const DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

const digit = (text: string, at: number) => text.charCodeAt(at) - 48;
const twoDigits = (text: string, at: number) => digit(text, at) * 10 + digit(text, at + 1);

/**
 * Whether a string that matches {@link TIMESTAMP_PATTERN} is also a `date-time` as Ajv's format
 * (ajv-formats, full mode) reads it: a real calendar day (leap years by the Gregorian rule), an
 * hour up to 23, minutes and seconds up to 59, or the leap second 23:59:60.
 * @note The snapshot check runs this instead of the format on every timestamp of a load: on a
 * string the pattern has already shaped, the format's splits and expressions come down to these
 * comparisons, and they cost a third of checking a large snapshot.
 * `test/unit/timestamp-check.node.test.ts` holds the two to the same answers.
 */
export function isDateTime(timestamp: string): boolean {
  const year = twoDigits(timestamp, 0) * 100 + twoDigits(timestamp, 2);
  const month = twoDigits(timestamp, 5);
  const day = twoDigits(timestamp, 8);
  if (month < 1 || month > 12 || day < 1) return false;
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  if (day > (month === 2 && leap ? 29 : DAYS[month - 1]!)) return false;
  const hour = twoDigits(timestamp, 11);
  const minute = twoDigits(timestamp, 14);
  const second = twoDigits(timestamp, 17);
  if (hour <= 23 && minute <= 59 && second <= 59) return true;
  return hour === 23 && minute === 59 && second === 60;
}
