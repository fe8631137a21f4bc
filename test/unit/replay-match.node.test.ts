/**
 * A recorded request read back through the description it was recorded against (replay's
 * match.ts): the operation, the ids its path carries, the run's values its body or URL carries.
 */
import { describe, expect, it } from 'vitest';
import { definedQuery, keepDefined, matchRequest } from '../../src/contract/replay/match.ts';
import { DEFAULT_DESCRIPTION } from '../../src/contract/target-api/description.ts';
import { parseTargetDescription } from '../../src/contract/target-api/load.ts';

const OTHER = parseTargetDescription(
  `
operations:
  listCollections: GET /v1/collections
  getCollection: GET /api/answers/collections/{collection_id}
  getObject: GET /api/answers/objects/{object_id}
  createCollection: POST /api/answers/collections
  createObject: POST /api/answers/collections/{collection_id}/objects
  search: GET /api/answers/search?q={query}&scope={collection_ids}
bodies:
  createCollection: { title: '{name}', meta: { user: '{metadata}' } }
  createObject: { body: '{content}' }
`,
  'a test description',
);

describe('matchRequest', () => {
  it.each([
    [
      'our list, under the API prefix',
      DEFAULT_DESCRIPTION,
      'GET',
      '/api/answers/v1/collections',
      '',
      undefined,
      { operation: 'listCollections', params: {}, values: {} },
    ],
    [
      'our list, under another prefix the mock answers',
      DEFAULT_DESCRIPTION,
      'GET',
      '/v1/collections',
      'limit=5',
      undefined,
      { operation: 'listCollections', params: {}, values: {} },
    ],
    [
      'an object of a collection (the longer template wins)',
      DEFAULT_DESCRIPTION,
      'GET',
      '/api/answers/v1/collections/col_1/objects/obj_2',
      '',
      undefined,
      {
        operation: 'getObject',
        params: { collection_id: 'col_1', object_id: 'obj_2' },
        values: {},
      },
    ],
    [
      'a percent-encoded id, decoded',
      DEFAULT_DESCRIPTION,
      'GET',
      '/api/answers/v1/collections/a%2Fb',
      '',
      undefined,
      { operation: 'getCollection', params: { collection_id: 'a/b' }, values: {} },
    ],
    [
      'our create, its body read',
      DEFAULT_DESCRIPTION,
      'POST',
      '/api/answers/v1/collections',
      '',
      { name: 'Recipes', metadata: { a: 1 } },
      {
        operation: 'createCollection',
        params: {},
        values: { name: 'Recipes', metadata: { a: 1 } },
      },
    ],
    [
      'our search with a scope',
      DEFAULT_DESCRIPTION,
      'POST',
      '/api/answers/v1/search',
      '',
      { query: 'ragù', collection_ids: ['col_1'] },
      { operation: 'search', params: {}, values: { query: 'ragù', collection_ids: ['col_1'] } },
    ],
    [
      'another design: a nested body template',
      OTHER,
      'POST',
      '/api/answers/collections',
      '',
      { title: 'Recipes', meta: { user: { a: 1 } } },
      {
        operation: 'createCollection',
        params: {},
        values: { name: 'Recipes', metadata: { a: 1 } },
      },
    ],
    [
      'another design: an object by its id alone',
      OTHER,
      'GET',
      '/api/answers/objects/42',
      '',
      undefined,
      { operation: 'getObject', params: { object_id: '42' }, values: {} },
    ],
    [
      'another design: a search in the query string, its scope split',
      OTHER,
      'GET',
      '/api/answers/search',
      'q=ragu&scope=1,2',
      undefined,
      { operation: 'search', params: {}, values: { query: 'ragu', collection_ids: ['1', '2'] } },
    ],
  ] as const)('%s', (_, description, method, path, query, body, expected) => {
    expect(matchRequest(description, method, path, query, body)).toEqual(expected);
  });

  it.each([
    ['a path the API does not have', DEFAULT_DESCRIPTION, 'GET', '/assets/app.js'],
    ['a method the path does not take', DEFAULT_DESCRIPTION, 'PUT', '/api/answers/v1/collections'],
    ['a CORS preflight', OTHER, 'OPTIONS', '/api/answers/collections'],
    [
      'a segment that only ends like a path',
      DEFAULT_DESCRIPTION,
      'GET',
      '/api/answers/v1/mycollections',
    ],
  ] as const)('none for %s', (_, description, method, path) => {
    expect(matchRequest(description, method, path, '', undefined)).toBeUndefined();
  });
});

describe('the query parameters an operation takes, and a query kept to them', () => {
  const PAGED = parseTargetDescription(
    `
operations:
  listCollections: GET /v2/collections
paging: { pageSize: per_page, page: page }
`,
    'a paged description',
  );
  it.each([
    ['our list', DEFAULT_DESCRIPTION, 'listCollections', ['cursor', 'limit', 'order']],
    ['our object', DEFAULT_DESCRIPTION, 'getObject', []],
    ['a search by GET', OTHER, 'search', ['q', 'scope']],
    ['a list at another path pages its own way', PAGED, 'listCollections', ['page', 'per_page']],
  ] as const)('%s', (_, description, operation, names) => {
    expect([...definedQuery(description, operation)].sort()).toEqual(names);
  });

  it.each([
    [
      'nothing but what it takes',
      'limit=2&access_token=a.b&cursor=c%3D&sig=0f&utm_source=x',
      'limit=2&cursor=c%3D',
    ],
    ['a name encoded', 'lim%69t=2&order=desc', 'lim%69t=2&order=desc'],
    ['an empty query', '', ''],
    ['none of it', 'access_token=t', ''],
  ])('keeps %s', (_, query, kept) => {
    expect(keepDefined(query, definedQuery(DEFAULT_DESCRIPTION, 'listCollections'))).toBe(kept);
  });
});
