/**
 * The steps `explore` generates: what to ask of the target (and of the model), as plain data that
 * fast-check generates, shrinks and prints. A step names earlier resources by number (`ref`), taken
 * modulo what exists when it runs, so removing a step while shrinking leaves the others valid.
 */
import * as fc from './fast-check.ts';
import type { OperationName } from '../target/description.ts';

import type { KeyName } from './comparison.ts';

export type { KeyName } from './comparison.ts';

/** The key of a write: usually the owner's (the key that made what it changes), else any. */
export type Writer = KeyName | 'owner';

export type Step =
  | { kind: 'createCollection'; key: KeyName; metadata: Record<string, unknown> }
  /** Several collections, one after another: lists of more than a page. */
  | { kind: 'createCollections'; key: KeyName; count: number }
  | { kind: 'getCollection'; ref: number; key: KeyName }
  | { kind: 'deleteCollection'; ref: number; key: Writer }
  | { kind: 'createObject'; ref: number; key: Writer; word: number; content: unknown }
  | { kind: 'createObjects'; ref: number; count: number; word: number }
  | { kind: 'getObject'; ref: number; key: KeyName }
  | { kind: 'search'; word: number; scoped: number | null; key: KeyName }
  | { kind: 'walk'; pageSize: number; key: KeyName }
  | { kind: 'updateCollection'; ref: number; key: Writer; metadata: Record<string, unknown> }
  | { kind: 'replaceObject'; ref: number; key: Writer; word: number; content: unknown }
  | { kind: 'deleteObject'; ref: number; key: Writer }
  /** A partial update of an object's content (our document's PATCH): keys set, `null` ones removed. */
  | { kind: 'updateObject'; ref: number; key: Writer; word: number; patch: Record<string, unknown> }
  /** A walk of a collection's objects (our document's `listObjects`). */
  | { kind: 'listObjects'; ref: number; key: KeyName; pageSize: number }
  /** A walk with writes between its pages: a new collection (`ref` null) or a delete. */
  | { kind: 'walkWhileWriting'; pageSize: number; key: KeyName; writes: Array<number | null> }
  /** A request a target must refuse as the model does (odd-steps.ts). */
  | { kind: 'oddRequest'; odd: Oddity }
  /** A walk whose later pages are asked for with another key than the first. */
  | { kind: 'walkAcrossKeys'; pageSize: number; first: KeyName; then: KeyName };

/** Odd requests any target is held to (the spec's clauses). */
const SPEC_ODDITIES = [
  'unknownId',
  'malformedJson',
  'xApiKey',
  'lowercaseBearer',
  'basicScheme',
  'bearerExtra',
  'noKey',
  'invalidKey',
  'badBodyNoKey',
] as const;

/** Odd requests only `--level profile` makes (our document's decisions). */
const PROFILE_ODDITIES = [
  'wrongMethod',
  'conflictingKeys',
  'badPageSize',
  'tamperedToken',
  'unknownField',
] as const;

export type Oddity = (typeof SPEC_ODDITIES)[number] | (typeof PROFILE_ODDITIES)[number];

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
const metadata = fc.oneof(
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
const patch = fc.dictionary(
  fc.constantFrom('extra', 'long', 'more', 'nested', 'gone'),
  fc.oneof(jsonValue, deep, longText, fc.constant(null)),
  { maxKeys: 3 },
);

/** Content: an object with text (the planted word goes in at run time), more fields, and one time in ten long text. */
const content = fc
  .record({
    text: fc.string({ unit: 'grapheme', maxLength: 20 }),
    extra: fc.dictionary(fc.string({ minLength: 1, maxLength: 6 }), jsonValue, { maxKeys: 3 }),
    long: fc.oneof(
      { weight: 9, arbitrary: fc.constant(undefined) },
      { weight: 1, arbitrary: longText },
    ),
  })
  .map(({ long, ...rest }) => (long === undefined ? rest : { ...rest, long }));

/** The operations each kind of step sends: a step is generated only when the target offers them. */
const NEEDS: Record<Step['kind'], OperationName[]> = {
  createCollection: ['createCollection'],
  createCollections: ['createCollection'],
  getCollection: ['getCollection'],
  deleteCollection: ['deleteCollection'],
  createObject: ['createObject'],
  createObjects: ['createObject'],
  getObject: ['getObject'],
  search: ['search'],
  walk: ['listCollections'],
  updateCollection: ['updateCollection'],
  replaceObject: ['replaceObject'],
  deleteObject: ['deleteObject'],
  updateObject: ['updateObject'],
  listObjects: ['listObjects'],
  walkWhileWriting: ['listCollections', 'createCollection', 'deleteCollection'],
  walkAcrossKeys: ['listCollections'],
  oddRequest: ['listCollections', 'getCollection', 'createCollection'],
};

/** The steps of a sequence, given the keys the run has and the operations the target offers. */
export function stepArbitrary(
  keys: readonly KeyName[],
  offers: (operation: OperationName) => boolean = () => true,
  profile = false,
): fc.Arbitrary<Step> {
  const key = fc.constantFrom(...keys);
  const writer: fc.Arbitrary<Writer> = fc.oneof(
    { weight: 3, arbitrary: fc.constant('owner' as const) },
    { weight: 1, arbitrary: key },
  );
  const ref = fc.nat({ max: 7 });
  const word = fc.nat({ max: WORDS - 1 });
  const pageSize = fc.integer({ min: 1, max: 5 });
  const kinds: Array<{ kind: Step['kind']; weight: number; arbitrary: fc.Arbitrary<Step> }> = [
    {
      kind: 'createCollection',
      weight: 4,
      arbitrary: fc.record({ kind: fc.constant('createCollection' as const), key, metadata }),
    },
    {
      kind: 'createCollections',
      weight: 1,
      arbitrary: fc.record({
        kind: fc.constant('createCollections' as const),
        key,
        count: fc.integer({ min: 2, max: 6 }),
      }),
    },
    {
      kind: 'getCollection',
      weight: 3,
      arbitrary: fc.record({ kind: fc.constant('getCollection' as const), ref, key }),
    },
    {
      kind: 'deleteCollection',
      weight: 2,
      arbitrary: fc.record({ kind: fc.constant('deleteCollection' as const), ref, key: writer }),
    },
    {
      kind: 'createObject',
      weight: 4,
      arbitrary: fc.record({
        kind: fc.constant('createObject' as const),
        ref,
        key: writer,
        word,
        content,
      }),
    },
    {
      kind: 'createObjects',
      weight: 1,
      arbitrary: fc.record({
        kind: fc.constant('createObjects' as const),
        ref,
        count: fc.integer({ min: 2, max: 30 }),
        word,
      }),
    },
    {
      kind: 'getObject',
      weight: 3,
      arbitrary: fc.record({ kind: fc.constant('getObject' as const), ref, key }),
    },
    {
      kind: 'search',
      weight: 3,
      arbitrary: fc.record({
        kind: fc.constant('search' as const),
        word,
        scoped: fc.option(ref, { nil: null }),
        key,
      }),
    },
    {
      kind: 'walk',
      weight: 2,
      arbitrary: fc.record({ kind: fc.constant('walk' as const), pageSize, key }),
    },
    {
      kind: 'updateCollection',
      weight: 2,
      arbitrary: fc.record({
        kind: fc.constant('updateCollection' as const),
        ref,
        key: writer,
        metadata,
      }),
    },
    {
      kind: 'replaceObject',
      weight: 2,
      arbitrary: fc.record({
        kind: fc.constant('replaceObject' as const),
        ref,
        key: writer,
        word,
        content,
      }),
    },
    {
      kind: 'deleteObject',
      weight: 2,
      arbitrary: fc.record({ kind: fc.constant('deleteObject' as const), ref, key: writer }),
    },
    {
      kind: 'updateObject',
      weight: 2,
      arbitrary: fc.record({
        kind: fc.constant('updateObject' as const),
        ref,
        key: writer,
        word,
        patch,
      }),
    },
    {
      kind: 'listObjects',
      weight: 2,
      arbitrary: fc.record({ kind: fc.constant('listObjects' as const), ref, key, pageSize }),
    },
    {
      kind: 'walkWhileWriting',
      weight: 2,
      arbitrary: fc.record({
        kind: fc.constant('walkWhileWriting' as const),
        pageSize,
        key,
        writes: fc.array(fc.option(ref, { nil: null }), { minLength: 1, maxLength: 3 }),
      }),
    },
    {
      kind: 'walkAcrossKeys',
      weight: keys.length > 1 ? 2 : 0,
      arbitrary: fc.record({
        kind: fc.constant('walkAcrossKeys' as const),
        pageSize,
        first: key,
        then: key,
      }),
    },
    {
      kind: 'oddRequest',
      weight: 2,
      arbitrary: fc.record({
        kind: fc.constant('oddRequest' as const),
        odd: fc.constantFrom<Oddity>(...SPEC_ODDITIES, ...(profile ? PROFILE_ODDITIES : [])),
      }),
    },
  ];
  return fc.oneof(
    ...kinds
      .filter(({ kind, weight }) => weight > 0 && NEEDS[kind].every(offers))
      .map(({ arbitrary, weight }) => ({ arbitrary, weight })),
  );
}
