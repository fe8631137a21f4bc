/**
 * Values as the independent server stores them: as sent, except under the seeded variants that
 * mangle them on the way in (a Latin-1 decode, 32-bit numbers, nested values as text, a text
 * column of 65,535 characters, four metadata slots, two levels of nesting, long text in a Latin-1
 * column or written in chunks of UTF-16 code units).
 */
import type { VariantName } from './variants.ts';

/** The longest string the `large-content-truncated` variant keeps. */
const TEXT_COLUMN = 65_535;
/** The metadata slots of the `metadata-first-4-keys` variant (`meta_key_1` … `meta_key_4`). */
const META_SLOTS = 4;
/** The levels of nesting the `metadata-nested-depth-2` variant keeps as objects. */
const META_DEPTH = 2;
/** Past this many characters, the `long-text-*` variants store a string in their long-text table. */
const LONG_TEXT = 1_000;

/** Metadata as the variants that mangle it store it; as sent otherwise. */
export function storedMeta(
  meta: Record<string, unknown>,
  variant: VariantName | undefined,
): Record<string, unknown> {
  const mangle = (value: unknown, depth: number): unknown => {
    if (variant === 'metadata-unicode-mangled' && typeof value === 'string')
      return Buffer.from(value, 'utf8').toString('latin1');
    if (variant === 'metadata-numbers-int32' && typeof value === 'number') return value | 0;
    if (variant === 'metadata-nested-flattened' && value !== null && typeof value === 'object')
      return String(value);
    // @note A document store that indexes two levels and keeps what is deeper as JSON text.
    if (
      variant === 'metadata-nested-depth-2' &&
      value !== null &&
      typeof value === 'object' &&
      depth > META_DEPTH
    )
      return JSON.stringify(value);
    if (Array.isArray(value)) return value.map((item) => mangle(item, depth + 1));
    if (value !== null && typeof value === 'object')
      return each(value as Record<string, unknown>, depth + 1);
    return value;
  };
  const each = (record: Record<string, unknown>, depth: number) =>
    Object.fromEntries(Object.entries(record).map(([k, v]) => [k, mangle(v, depth)]));
  return each(meta, 1);
}

/**
 * Metadata as it is kept once written: whole, except under `metadata-first-4-keys`, whose table
 * has four key/value slots: the first four keys are kept, the rest dropped without a word.
 */
export function keptKeys(
  meta: Record<string, unknown>,
  variant: VariantName | undefined,
): Record<string, unknown> {
  if (variant !== 'metadata-first-4-keys') return meta;
  return Object.fromEntries(Object.entries(meta).slice(0, META_SLOTS));
}

/** A long string as the `long-text-*` variants keep it. */
function longText(text: string, variant: VariantName | undefined): string {
  if (text.length <= LONG_TEXT) return text;
  // @note A long-text table whose column is Latin-1: what Latin-1 cannot hold becomes "?".
  if (variant === 'long-text-latin1')
    return [...text].map((char) => (char.codePointAt(0)! > 0xff ? '?' : char)).join('');
  // @note Written in chunks of 1,000 UTF-16 code units, each encoded to UTF-8 on its own: a
  // surrogate pair cut at a chunk's edge becomes two U+FFFD.
  if (variant === 'long-text-surrogate-split') {
    const chunks: string[] = [];
    for (let at = 0; at < text.length; at += LONG_TEXT)
      chunks.push(Buffer.from(text.slice(at, at + LONG_TEXT), 'utf8').toString('utf8'));
    return chunks.join('');
  }
  return text;
}

/**
 * An object's body as stored: long strings cut under `large-content-truncated`, long non-Latin-1
 * text mangled under the `long-text-*` variants.
 */
export function storedBody(body: unknown, variant: VariantName | undefined): unknown {
  const cutting = variant === 'large-content-truncated';
  if (!cutting && variant !== 'long-text-latin1' && variant !== 'long-text-surrogate-split')
    return body;
  const cut = (value: unknown): unknown => {
    if (typeof value === 'string')
      return cutting ? value.slice(0, TEXT_COLUMN) : longText(value, variant);
    if (Array.isArray(value)) return value.map(cut);
    if (value !== null && typeof value === 'object')
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, cut(v)]));
    return value;
  };
  return cut(body);
}
