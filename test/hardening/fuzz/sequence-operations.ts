/**
 * The operations of the random sequences, as plain JSON ({@link Op}) so that a shrunk
 * counterexample can be pasted into a regression test, and their fast-check arbitraries.
 */
import fc from 'fast-check';
import type { Json } from '../fuzz-support.ts';

export type Account = 'acme' | 'globex';
/** Which resource an operation targets, resolved against the model when the step runs. */
export type Ref = { live: number } | { deleted: number } | { foreign: number } | 'unknown';

export type Single =
  | { op: 'createCollection'; as: Account; name: string }
  | { op: 'renameCollection'; as: Account; c: Ref; name: string }
  | { op: 'deleteCollection'; as: Account; c: Ref }
  | { op: 'getCollection'; as: Account; c: Ref }
  | { op: 'createObject'; as: Account; c: Ref; content: Json }
  | { op: 'replaceObject'; as: Account; o: Ref; content: Json }
  | { op: 'patchObject'; as: Account; o: Ref; patch: Json }
  | { op: 'deleteObject'; as: Account; o: Ref }
  | { op: 'getObject'; as: Account; o: Ref };

export type Walk =
  | { op: 'listCollections'; as: Account; limit: number; order: 'asc' | 'desc' }
  | { op: 'listObjects'; as: Account; c: Ref; limit: number; order: 'asc' | 'desc' }
  | { op: 'search'; as: Account; word: string; limit: number; in?: Ref[] };

export type Op = Single | Walk | { op: 'parallel'; ops: Single[] };

const NAMES = ['n0', 'n1', 'n2', 'n3'];
/** Words of the contents; search queries pick from them (in any letter case). */
export const VOCABULARY = ['alpha', 'beta', 'gamma', 'Ümlaut', '数据', 'x1'];

const ref: fc.Arbitrary<Ref> = fc.oneof(
  { weight: 10, arbitrary: fc.nat(50).map((live) => ({ live })) },
  { weight: 1, arbitrary: fc.nat(50).map((deleted) => ({ deleted })) },
  { weight: 1, arbitrary: fc.nat(50).map((foreign) => ({ foreign })) },
  { weight: 1, arbitrary: fc.constant('unknown' as const) },
);

const account = fc.constantFrom<Account>('acme', 'globex');
const text = fc
  .array(fc.constantFrom(...VOCABULARY, 'ALPHA', 'the'), { minLength: 1, maxLength: 4 })
  .chain((words) => fc.constantFrom(' ', ', ', '-', '.').map((sep) => words.join(sep)));
const key = fc.constantFrom('title', 'body', 'tags', 'n', 'meta', '__proto__', 'constructor', '');

const value: fc.Arbitrary<Json> = fc.letrec<{ value: Json }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    text,
    fc.integer({ min: -1000, max: 1000 }),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 3 }),
    fc.array(fc.tuple(key, tie('value')), { maxLength: 3 }).map((e) => Object.fromEntries(e)),
  ),
})).value;

const content: fc.Arbitrary<Json> = fc
  .array(fc.tuple(key, value), { maxLength: 4 })
  .map((entries) => Object.fromEntries(entries));

const single: fc.Arbitrary<Single> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record({
      op: fc.constant('createCollection' as const),
      as: account,
      name: fc.constantFrom(...NAMES),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      op: fc.constant('renameCollection' as const),
      as: account,
      c: ref,
      name: fc.constantFrom(...NAMES),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ op: fc.constant('deleteCollection' as const), as: account, c: ref }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ op: fc.constant('getCollection' as const), as: account, c: ref }),
  },
  {
    weight: 5,
    arbitrary: fc.record({
      op: fc.constant('createObject' as const),
      as: account,
      c: ref,
      content,
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      op: fc.constant('replaceObject' as const),
      as: account,
      o: ref,
      content,
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      op: fc.constant('patchObject' as const),
      as: account,
      o: ref,
      patch: content,
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({ op: fc.constant('deleteObject' as const), as: account, o: ref }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ op: fc.constant('getObject' as const), as: account, o: ref }),
  },
);

const limit = fc.integer({ min: 1, max: 7 });
const order = fc.constantFrom<'asc' | 'desc'>('asc', 'desc');

/** One random operation (a walk, a single request, or 2-3 requests at once). */
const operation: fc.Arbitrary<Op> = fc.oneof(
  { weight: 14, arbitrary: single },
  {
    weight: 1,
    arbitrary: fc.record({
      op: fc.constant('listCollections' as const),
      as: account,
      limit,
      order,
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      op: fc.constant('listObjects' as const),
      as: account,
      c: ref,
      limit,
      order,
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record(
      {
        op: fc.constant('search' as const),
        as: account,
        word: fc
          .tuple(fc.constantFrom(...VOCABULARY), fc.boolean())
          .map(([w, upper]) => (upper ? w.toUpperCase() : w)),
        limit,
        in: fc.array(ref, { minLength: 1, maxLength: 3 }),
      },
      { requiredKeys: ['op', 'as', 'word', 'limit'] },
    ),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      op: fc.constant('parallel' as const),
      ops: fc.array(single, { minLength: 2, maxLength: 3 }),
    }),
  },
);

/** A random sequence of operations. */
export const sequence = (maxLength: number) =>
  fc.array(operation, { minLength: 1, maxLength, size: 'medium' });
