/**
 * The values `explore` sends: JSON of every shape the document accepts, long text in every plane
 * of Unicode, metadata of few or many keys, content and partial updates of it. Shared by the step
 * kinds (steps/), which fast-check generates, shrinks and prints.
 */
import * as fc from './fast-check.ts';

/** JSON values within what the document accepts: nested, Unicode, numbers at the edges. */
const jsonValue: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.string({ unit: 'grapheme', maxLength: 12 }),
    fc.constantFrom(0, -1, Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER, 1e-7, 1.5e300),
    fc.integer(),
    fc.boolean(),
    fc.array(tie('value'), { maxLength: 3 }),
    fc.dictionary(fc.string({ minLength: 1, maxLength: 6 }), tie('value'), { maxKeys: 3 }),
  ),
})).value;

/**
 * Long text: past the sizes a column or a buffer might cut at (1 KiB, 64 KiB), within what the
 * document accepts (a body of 1 MiB); in ASCII, or in letters of every plane (2-, 3- and 4-byte
 * UTF-8, surrogate pairs in UTF-16), where a cut by bytes splits a character.
 */
const LINES = [
  'a long line of text ',
  'ünïcödé Ελληνικά кириллица ',
  '中文文字 日本語 한국어 ',
  '𝔘𝔫𝔦𝔠𝔬𝔡𝔢 😀🚀 𐍈 ',
] as const;
const longText = fc
  .record({
    line: fc.constantFrom(...LINES),
    times: fc.integer({ min: 1, max: 12 }),
    tail: fc.nat(7),
  })
  .map(({ line, times, tail }) => line.repeat(times * 500 + tail));

/** Nested objects, deeper than the generic values go (4 levels), for what flattens or drops them. */
const deep = fc
  .array(fc.string({ minLength: 1, maxLength: 5 }), { minLength: 2, maxLength: 5 })
  .chain((path) =>
    jsonValue.map((leaf) => path.reduceRight<unknown>((inner, key) => ({ [key]: inner }), leaf)),
  );

/**
 * Metadata: usually a few keys (none, often); now and then many (past the 4 or 10 a store might
 * keep), one nested deep, or one long value; each any JSON value but null.
 */
const metadataValue = jsonValue.filter((value) => value !== null);
const fewKeys = fc.dictionary(fc.string({ minLength: 1, maxLength: 8 }), metadataValue, {
  maxKeys: 4,
});
const anyMetadata = fc.oneof(
  { weight: 12, arbitrary: fewKeys },
  {
    weight: 2,
    arbitrary: fc.dictionary(fc.string({ minLength: 1, maxLength: 12 }), metadataValue, {
      minKeys: 5,
      maxKeys: 24,
    }),
  },
  {
    weight: 1,
    arbitrary: fc.tuple(fewKeys, fc.oneof(deep, longText)).map(([rest, odd]) => ({ ...rest, odd })),
  },
);

/**
 * A partial update of content: a few fields set (nested ones merge or replace by the target's
 * style), some removed (`null`, under a merge patch); the text is set by the step.
 */
const anyPatch = fc.dictionary(
  fc.constantFrom('extra', 'long', 'more', 'nested', 'gone'),
  fc.oneof(jsonValue, deep, longText, fc.constant(null)),
  { maxKeys: 3 },
);

/** Content: an object with text (the planted word goes in at run time), more fields, and one time in ten long text. */
const anyContent = fc
  .record({
    text: fc.string({ unit: 'grapheme', maxLength: 20 }),
    extra: fc.dictionary(fc.string({ minLength: 1, maxLength: 6 }), jsonValue, { maxKeys: 3 }),
    long: fc.oneof(
      { weight: 9, arbitrary: fc.constant(undefined) },
      { weight: 1, arbitrary: longText },
    ),
  })
  .map(({ long, ...rest }) => (long === undefined ? rest : { ...rest, long }));

/**
 * What the steps send, shrunk as a whole or not at all: a story loses its steps that do not
 * matter (the sequence shrinks), not the keys of a value. Shrinking values too multiplied the
 * replays of a shrink (measured in docs/performance.md); the values print cut short anyway.
 */
export const metadata = fc.noShrink(anyMetadata);
export const patch = fc.noShrink(anyPatch);
/** An object's content as a step holds it: any JSON object with a text to plant a word in. */
export type Content = { text: string } & Record<string, unknown>;
export const content: fc.Arbitrary<Content> = fc.noShrink(anyContent);
