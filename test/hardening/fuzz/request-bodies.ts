/**
 * Arbitraries of the query string and the body of a random request: every pagination parameter
 * (with valid cursors of the default seed), bodies of each operation's shape, random JSON and
 * bytes, bodies past the size limit, deep nesting and numbers a double cannot hold.
 */
import fc from 'fast-check';
import { defaultState } from '../../../src/seed/default-state.ts';
import { NOW, type BodyCase } from './request-case.ts';

const collections = defaultState.collections;

/** Valid cursors of the default seed (seed 1), and where they came from, for the query fuzz. */
export interface Cursors {
  list: string[];
  search: string[];
}

const queryValue = (cursors: Cursors) => ({
  limit: fc.oneof(
    fc.constantFrom(
      '0',
      '1',
      '2',
      '20',
      '100',
      '101',
      '-1',
      '1.0',
      '1e2',
      '2.5',
      ' 5',
      '5 ',
      '0x10',
      'NaN',
      'Infinity',
      '',
      '99999999999999999999',
      '1e400',
    ),
    fc.integer({ min: -5, max: 200 }).map(String),
  ),
  cursor: fc.oneof(
    fc.constantFrom(...cursors.list, ...cursors.search),
    fc.constantFrom(...cursors.list).map((c) => `${c.slice(0, -1)}${c.endsWith('a') ? 'b' : 'a'}`),
    fc.constantFrom('', '.', 'a.b', 'e30.0', '%', 'x'.repeat(1025)),
    fc.string({ maxLength: 40 }),
  ),
  order: fc.constantFrom('asc', 'desc', 'ASC', '', 'random', 'asc,desc'),
});

export const queryString = (cursors: Cursors) => {
  const values = queryValue(cursors);
  const pair = fc.oneof(
    values.limit.map((v) => ['limit', v]),
    values.cursor.map((v) => ['cursor', v]),
    values.order.map((v) => ['order', v]),
    fc.tuple(fc.constantFrom('query', 'collection_ids', 'key', 'api_key', 'x'), fc.string()),
  );
  return fc
    .array(pair, { maxLength: 4 })
    .map((pairs) => new URLSearchParams(pairs as Array<[string, string]>).toString());
};

/** A JSON object with keys that stress prototypes and empty names. */
const jsonObject = fc
  .array(
    fc.tuple(
      fc.oneof(
        fc.constantFrom('title', 'tags', '__proto__', 'constructor', 'toString', ''),
        fc.string({ maxLength: 8 }),
      ),
      fc.jsonValue({ maxDepth: 3 }),
    ),
    { maxLength: 5 },
  )
  .map((entries) => Object.fromEntries(entries));

const collectionBody = fc.record(
  {
    name: fc.oneof(
      { weight: 4, arbitrary: fc.string({ maxLength: 110 }) },
      { weight: 2, arbitrary: fc.constantFrom(...collections.map((c) => c.name)) },
      { weight: 1, arbitrary: fc.jsonValue() },
    ),
    metadata: jsonObject,
  },
  { requiredKeys: [] },
);
const objectBody = fc.record(
  {
    content: fc.oneof(
      { weight: 4, arbitrary: jsonObject },
      { weight: 1, arbitrary: fc.jsonValue() },
    ),
  },
  { requiredKeys: [] },
);
const searchBody = (cursors: Cursors) =>
  fc.record(
    {
      query: fc.oneof(fc.string({ maxLength: 20 }), fc.constantFrom('billing', 'the policy')),
      limit: fc.oneof(fc.integer({ min: -2, max: 120 }), fc.jsonValue()),
      collection_ids: fc.array(
        fc.oneof(fc.constantFrom(...collections.map((c) => c.id)), fc.string()),
        { maxLength: 4 },
      ),
      cursor: queryValue(cursors).cursor,
    },
    { requiredKeys: [] },
  );
const systemFieldsBody = fc.record(
  {
    id: fc.constant('col_aaaaaaaaaaaaaaaaaaaa'),
    created_at: fc.constant(NOW),
    version: fc.integer(),
    content: jsonObject,
    name: fc.string(),
  },
  { requiredKeys: [] },
);

const plausibleBody = (cursors: Cursors) =>
  fc.oneof(collectionBody, objectBody, searchBody(cursors), systemFieldsBody);

/** A body of the shape the operation at `method` `path` takes, mostly. */
export const bodyFor = (cursors: Cursors, method: string, path: string): fc.Arbitrary<unknown> => {
  const fitting = path.endsWith('/search')
    ? searchBody(cursors)
    : /\/objects/.test(path)
      ? objectBody
      : collectionBody;
  return fc.oneof(
    { weight: 5, arbitrary: fitting },
    { weight: 1, arbitrary: plausibleBody(cursors) },
  );
};

/** Numbers JSON can write but a double cannot hold exactly, or at all. */
export const numberEdgeBody: fc.Arbitrary<BodyCase> = fc
  .tuple(
    fc.constantFrom('1e400', '-1e400', '1e-400', '123456789012345678901234567890', '-0'),
    fc.constantFrom('{"content":{"n":%}}', '{"content":{"a":[1,{"b":%}]}}'),
  )
  .map(([n, template]) => ({ text: template.replace('%', n) }));

export const body = (cursors: Cursors): fc.Arbitrary<BodyCase | undefined> =>
  fc.oneof(
    { weight: 4, arbitrary: fc.constant(undefined) },
    { weight: 10, arbitrary: plausibleBody(cursors).map((v) => ({ text: JSON.stringify(v) })) },
    { weight: 2, arbitrary: fc.jsonValue().map((v) => ({ text: JSON.stringify(v) })) },
    { weight: 1, arbitrary: fc.string({ maxLength: 40 }).map((text) => ({ text })) },
    {
      weight: 1,
      arbitrary: fc
        .uint8Array({ maxLength: 64 })
        .map((b) => ({ base64: Buffer.from(b).toString('base64') })),
    },
    {
      // Large strings, up to past the 1 MiB limit.
      weight: 1,
      arbitrary: fc
        .constantFrom(1_000, 100_000, 1_048_500, 1_048_600, 1_100_000)
        .map((n) => ({ parts: ['{"content":{"a":"', ['x', n] as [string, number], '"}}'] })),
    },
    {
      // Deeply nested arrays or objects, in content, metadata or a search body.
      weight: 1,
      arbitrary: fc
        .tuple(
          fc.constantFrom<[string, string]>(
            ['{"content":{"a":', '}}'],
            ['{"name":"n","metadata":{"a":', '}}'],
            ['{"query":', '}'],
          ),
          fc.constantFrom<[string, string]>(['[', ']'], ['{"a":', '}']),
          fc.integer({ min: 1, max: 20_000 }),
        )
        .map(([[head, tail], [open, close], depth]) => ({
          parts: [
            head,
            [open, depth] as [string, number],
            '1',
            [close, depth] as [string, number],
            tail,
          ],
        })),
    },
    { weight: 1, arbitrary: numberEdgeBody },
  );
