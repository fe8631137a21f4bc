/**
 * Arbitraries of the parts of a random request other than its query and body: paths with real
 * and odd ids, API prefixes, methods, credentials and headers.
 */
import fc from 'fast-check';
import { defaultState } from '../../../src/seed/default-state.ts';
import { DEV_KEYS } from '../../../src/seed/dev-keys.ts';
import { API_PREFIXES } from './request-case.ts';

const ALL_KEYS = DEV_KEYS.map((k) => k.key);
const collections = defaultState.collections;
const objects = defaultState.objects;

const oddSegment = fc.oneof(
  fc.constantFrom(
    '',
    '.',
    '..',
    '%',
    '%2F',
    '%2f..%2f',
    '%ZZ',
    '%00',
    '%E9',
    '%C3%A9',
    '%F0%9F%92%A9',
    '%ED%A0%80',
    'é',
    '💩',
    ' ',
    'a'.repeat(128),
    'a'.repeat(129),
    'col_' + 'z'.repeat(20),
    'obj_' + '0'.repeat(20),
    '__proto__',
    'constructor',
    'toString',
    '{collection_id}',
    'collections',
    'objects',
    'search',
    'null',
  ),
  fc.string({ maxLength: 12 }).map(encodeURIComponent),
  fc.string({ maxLength: 12 }),
  fc
    .uint8Array({ maxLength: 6 })
    .map((bytes) => [...bytes].map((b) => `%${b.toString(16).padStart(2, '0')}`).join('')),
);

export const collectionSegment = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...collections.map((c) => c.id)) },
  { weight: 1, arbitrary: fc.constant('col_00000000000000000000') },
  { weight: 2, arbitrary: oddSegment },
);

export const objectPath = fc.oneof(
  {
    weight: 4,
    arbitrary: fc
      .constantFrom(...objects)
      .map((o) => `/collections/${o.collection_id}/objects/${o.id}`),
  },
  {
    weight: 2,
    arbitrary: fc
      .tuple(collectionSegment, fc.oneof(fc.constantFrom(...objects.map((o) => o.id)), oddSegment))
      .map(([c, o]) => `/collections/${c}/objects/${o}`),
  },
);

export const routePath = fc.oneof(
  { weight: 3, arbitrary: fc.constant('/collections') },
  { weight: 3, arbitrary: collectionSegment.map((c) => `/collections/${c}`) },
  { weight: 3, arbitrary: collectionSegment.map((c) => `/collections/${c}/objects`) },
  { weight: 4, arbitrary: objectPath },
  { weight: 3, arbitrary: fc.constant('/search') },
  {
    weight: 1,
    arbitrary: fc.constantFrom('/collections/', '/search/', '/', '', '/collections//objects'),
  },
  { weight: 1, arbitrary: fc.array(oddSegment, { maxLength: 5 }).map((s) => `/${s.join('/')}`) },
);

export const prefix = fc.oneof(
  { weight: 12, arbitrary: fc.constantFrom(...API_PREFIXES) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      '',
      '/api',
      '/v2',
      '/API/answers/v1',
      '/api/answers/v1/',
      '//api/answers/v1',
      '/api/answers/v1/v1',
      '/__mock',
      '/api%2Fanswers/v1',
    ),
  },
);

export const method = fc.oneof(
  { weight: 20, arbitrary: fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE') },
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      'HEAD',
      'OPTIONS',
      'TRACE',
      'CONNECT',
      'get',
      'Post',
      'patch',
      'PROPFIND',
      'PURGE',
      'M-SEARCH',
      'FOO',
    ),
  },
  { weight: 1, arbitrary: fc.stringMatching(/^[A-Za-z-]{1,10}$/) },
);

const someKey = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...ALL_KEYS) },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      'answers_test_full_acmf',
      'answers_test_full_acme=',
      'answers_test_full_acme ',
      'ANSWERS_TEST_FULL_ACME',
      'a'.repeat(513),
      '',
      'answers_test_full_acme,answers_test_full_acme',
    ),
  },
  { weight: 1, arbitrary: fc.string({ maxLength: 30 }) },
);

export type Pairs = Array<[string, string]>;

export const auth: fc.Arbitrary<Pairs> = fc.oneof(
  { weight: 2, arbitrary: fc.constant<Pairs>([]) },
  { weight: 8, arbitrary: someKey.map((k): Pairs => [['authorization', `Bearer ${k}`]]) },
  { weight: 3, arbitrary: someKey.map((k): Pairs => [['x-answers-api-key', k]]) },
  {
    weight: 2,
    arbitrary: fc.tuple(someKey, fc.boolean(), someKey).map(([a, same, b]): Pairs => [
      ['authorization', `Bearer ${a}`],
      ['x-answers-api-key', same ? a : b],
    ]),
  },
  {
    weight: 2,
    arbitrary: fc
      .tuple(
        fc.constantFrom(
          'Bearer',
          'Bearer ',
          'Bearer  ',
          'bearer ',
          'BEARER ',
          'Basic ',
          'Token ',
          '',
          'Bearer\t',
        ),
        someKey,
        fc.constantFrom('', ' ', ' extra', ', Bearer x'),
      )
      .map(([scheme, key, tail]): Pairs => [['authorization', `${scheme}${key}${tail}`]]),
  },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.constantFrom(...ALL_KEYS), fc.constantFrom(...ALL_KEYS))
      .map(([a, b]): Pairs => [
        ['authorization', `Bearer ${a}`],
        ['authorization', `Bearer ${b}`],
      ]),
  },
  { weight: 1, arbitrary: fc.string({ maxLength: 40 }).map((v): Pairs => [['authorization', v]]) },
);

export const contentType = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.constantFrom(
      'application/json',
      'application/json; charset=utf-8',
      'application/merge-patch+json',
    ),
  },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      'APPLICATION/JSON',
      'text/plain',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
      'application/problem+json',
      ';',
      '',
      'application/json, text/plain',
      'application/json;charset=latin1',
    ),
  },
  { weight: 1, arbitrary: fc.string({ maxLength: 20 }) },
);

export const extraHeaders: fc.Arbitrary<Pairs> = fc.array(
  fc.oneof(
    contentType.map((v): [string, string] => ['content-type', v]),
    fc
      .constantFrom(
        'code=429',
        'code=404',
        'code=500',
        'code=200',
        'code=999',
        'code=abc',
        'return=minimal',
        'code=401, respond-async',
      )
      .map((v): [string, string] => ['prefer', v]),
    fc
      .constantFrom('gzip', 'identity', 'br', '')
      .map((v): [string, string] => ['content-encoding', v]),
    fc.tuple(
      fc.constantFrom('accept', 'x-request-id', 'origin', 'cookie', 'x-forwarded-for', 'x-custom'),
      fc.string({ maxLength: 20 }),
    ),
  ),
  { maxLength: 3 },
);
