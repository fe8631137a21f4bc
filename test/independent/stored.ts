/**
 * Values as the independent server stores them: as sent, except under the seeded variants that
 * mangle them on the way in (a Latin-1 decode, 32-bit numbers, nested values as text, a text
 * column of 65,535 characters).
 */
import type { VariantName } from './variants.ts';

/** The longest string the `large-content-truncated` variant keeps. */
const TEXT_COLUMN = 65_535;

/** Metadata as the variants that mangle it store it; as sent otherwise. */
export function storedMeta(
  meta: Record<string, unknown>,
  variant: VariantName | undefined,
): Record<string, unknown> {
  const mangle = (value: unknown): unknown => {
    if (variant === 'metadata-unicode-mangled' && typeof value === 'string')
      return Buffer.from(value, 'utf8').toString('latin1');
    if (variant === 'metadata-numbers-int32' && typeof value === 'number') return value | 0;
    if (variant === 'metadata-nested-flattened' && value !== null && typeof value === 'object')
      return String(value);
    if (Array.isArray(value)) return value.map(mangle);
    if (value !== null && typeof value === 'object') return each(value as Record<string, unknown>);
    return value;
  };
  const each = (record: Record<string, unknown>) =>
    Object.fromEntries(Object.entries(record).map(([k, v]) => [k, mangle(v)]));
  return each(meta);
}

/** An object's body as stored: long strings cut under `large-content-truncated`. */
export function storedBody(body: unknown, variant: VariantName | undefined): unknown {
  if (variant !== 'large-content-truncated') return body;
  const cut = (value: unknown): unknown => {
    if (typeof value === 'string') return value.slice(0, TEXT_COLUMN);
    if (Array.isArray(value)) return value.map(cut);
    if (value !== null && typeof value === 'object')
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, cut(v)]));
    return value;
  };
  return cut(body);
}
