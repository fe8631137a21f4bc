/**
 * The steps `explore` generates: what to ask of the target (and of the model), as plain data that
 * fast-check generates, shrinks and prints. A step names earlier resources by number (`ref`), taken
 * modulo what exists when it runs, so removing a step while shrinking leaves the others valid.
 */
import fc from 'fast-check';

/** A key the run was given: each step presents one. */
export type KeyName = 'full' | 'readonly' | 'otherAccount' | 'inactive';

export type Step =
  | { kind: 'createCollection'; key: KeyName; metadata: Record<string, unknown> }
  | { kind: 'getCollection'; ref: number; key: KeyName }
  | { kind: 'deleteCollection'; ref: number; key: KeyName }
  | { kind: 'createObject'; ref: number; key: KeyName; word: number; content: unknown }
  | { kind: 'createObjects'; ref: number; count: number; word: number }
  | { kind: 'getObject'; ref: number; key: KeyName }
  | { kind: 'search'; word: number; scoped: number | null; key: KeyName }
  | { kind: 'walk'; pageSize: number; key: KeyName };

/** How many words a sequence plants in content, to search for. */
export const WORDS = 3;

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

/** Metadata: an object of a few keys (none, usually), each any JSON value but null. */
const metadata = fc.dictionary(
  fc.string({ minLength: 1, maxLength: 8 }),
  jsonValue.filter((value) => value !== null),
  { maxKeys: 4 },
);

/** Content: an object with text (the planted word goes in at run time) and more fields. */
const content = fc.record({
  text: fc.string({ unit: 'grapheme', maxLength: 20 }),
  extra: fc.dictionary(fc.string({ minLength: 1, maxLength: 6 }), jsonValue, { maxKeys: 3 }),
});

/** The steps of a sequence, given the keys the run has. */
export function stepArbitrary(keys: readonly KeyName[]): fc.Arbitrary<Step> {
  const key = fc.constantFrom(...keys);
  const ref = fc.nat({ max: 7 });
  const word = fc.nat({ max: WORDS - 1 });
  return fc.oneof(
    {
      arbitrary: fc.record({ kind: fc.constant('createCollection' as const), key, metadata }),
      weight: 4,
    },
    { arbitrary: fc.record({ kind: fc.constant('getCollection' as const), ref, key }), weight: 3 },
    {
      arbitrary: fc.record({ kind: fc.constant('deleteCollection' as const), ref, key }),
      weight: 2,
    },
    {
      arbitrary: fc.record({ kind: fc.constant('createObject' as const), ref, key, word, content }),
      weight: 4,
    },
    {
      arbitrary: fc.record({
        kind: fc.constant('createObjects' as const),
        ref,
        count: fc.integer({ min: 2, max: 30 }),
        word,
      }),
      weight: 1,
    },
    { arbitrary: fc.record({ kind: fc.constant('getObject' as const), ref, key }), weight: 3 },
    {
      arbitrary: fc.record({
        kind: fc.constant('search' as const),
        word,
        scoped: fc.option(ref, { nil: null }),
        key,
      }),
      weight: 3,
    },
    {
      arbitrary: fc.record({
        kind: fc.constant('walk' as const),
        pageSize: fc.integer({ min: 1, max: 5 }),
        key,
      }),
      weight: 2,
    },
  );
}
