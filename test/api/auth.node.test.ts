import { beforeEach, describe, expect, it } from 'vitest';
import { call, KEYS } from '../support/api.ts';
import { useMswMock } from '../support/msw-setup.ts';
import { defaultState } from '../../src/seed/default-state.ts';

const mock = await useMswMock();
const collection = defaultState.collections.find((c) => c.name === 'Product FAQ')!;
const object = defaultState.objects.find((o) => o.collection_id === collection.id)!;

/** Keys that each lack one permission, so every operation has a "lacking permission" case. */
const LACKING = {
  read: { key: 'answers_test_noread_acme', permissions: ['write', 'search'] },
  write: { key: KEYS.readonly, permissions: ['read', 'search'] },
  search: { key: 'answers_test_nosearch_acme', permissions: ['read', 'write'] },
} as const;

beforeEach(async () => {
  await mock.controls.load({
    ...defaultState,
    api_keys: [
      ...defaultState.api_keys,
      {
        key: LACKING.read.key,
        account_id: 'acme',
        permissions: [...LACKING.read.permissions],
        active: true,
      },
      {
        key: LACKING.search.key,
        account_id: 'acme',
        permissions: [...LACKING.search.permissions],
        active: true,
      },
    ],
  });
});

/** One valid request per operation of openapi.yaml, and the permission it needs. */
const OPERATIONS = [
  { id: 'listCollections', method: 'GET', path: '/collections', permission: 'read', ok: 200 },
  {
    id: 'createCollection',
    method: 'POST',
    path: '/collections',
    body: { name: 'Auth matrix' },
    permission: 'write',
    ok: 201,
  },
  {
    id: 'getCollection',
    method: 'GET',
    path: `/collections/${collection.id}`,
    permission: 'read',
    ok: 200,
  },
  {
    id: 'updateCollection',
    method: 'PATCH',
    path: `/collections/${collection.id}`,
    body: { metadata: {} },
    permission: 'write',
    ok: 200,
  },
  {
    id: 'deleteCollection',
    method: 'DELETE',
    path: `/collections/${collection.id}`,
    permission: 'write',
    ok: 204,
  },
  {
    id: 'listObjects',
    method: 'GET',
    path: `/collections/${collection.id}/objects`,
    permission: 'read',
    ok: 200,
  },
  {
    id: 'createObject',
    method: 'POST',
    path: `/collections/${collection.id}/objects`,
    body: { content: {} },
    permission: 'write',
    ok: 201,
  },
  {
    id: 'getObject',
    method: 'GET',
    path: `/collections/${collection.id}/objects/${object.id}`,
    permission: 'read',
    ok: 200,
  },
  {
    id: 'replaceObject',
    method: 'PUT',
    path: `/collections/${collection.id}/objects/${object.id}`,
    body: { content: {} },
    permission: 'write',
    ok: 200,
  },
  {
    id: 'updateObject',
    method: 'PATCH',
    path: `/collections/${collection.id}/objects/${object.id}`,
    body: { content: {} },
    permission: 'write',
    ok: 200,
  },
  {
    id: 'deleteObject',
    method: 'DELETE',
    path: `/collections/${collection.id}/objects/${object.id}`,
    permission: 'write',
    ok: 204,
  },
  {
    id: 'searchObjects',
    method: 'POST',
    path: '/search',
    body: { query: 'the' },
    permission: 'search',
    ok: 200,
  },
] as const;

/** Each credential case: the headers sent, and the expected status and error code. */
const CASES = [
  { name: 'no key', headers: {}, code: 'missing_credentials', challenge: 'Bearer realm="answers"' },
  {
    name: 'an empty Authorization header',
    headers: { authorization: '' },
    code: 'malformed_credentials',
    challenge: 'invalid_request',
  },
  {
    name: 'another scheme',
    headers: { authorization: `Basic ${KEYS.full}` },
    code: 'malformed_credentials',
    challenge: 'invalid_request',
  },
  {
    name: 'Bearer without a token',
    headers: { authorization: 'Bearer' },
    code: 'malformed_credentials',
    challenge: 'invalid_request',
  },
  {
    name: 'extra parts',
    headers: { authorization: `Bearer ${KEYS.full} extra` },
    code: 'malformed_credentials',
    challenge: 'invalid_request',
  },
  {
    name: 'an unknown key',
    headers: { authorization: 'Bearer answers_test_nobody' },
    code: 'invalid_api_key',
    challenge: 'invalid_token',
  },
  {
    name: 'an inactive key',
    headers: { 'x-answers-api-key': KEYS.inactive },
    code: 'inactive_api_key',
    challenge: 'invalid_token',
  },
  {
    name: 'two different keys',
    headers: { authorization: `Bearer ${KEYS.full}`, 'x-answers-api-key': KEYS.globex },
    code: 'conflicting_api_keys',
    challenge: 'invalid_token',
  },
  {
    name: 'a key lacking the permission',
    headers: 'lacking',
    code: 'insufficient_permission',
    challenge: 'insufficient_scope',
  },
  {
    name: 'a valid key via Authorization: Bearer',
    headers: { authorization: `Bearer ${KEYS.full}` },
  },
  {
    name: 'a valid key via a lower-case bearer scheme',
    headers: { authorization: `bearer ${KEYS.full}` },
  },
  { name: 'a valid key via X-Answers-API-Key', headers: { 'x-answers-api-key': KEYS.full } },
  {
    name: 'the same valid key in both headers',
    headers: { authorization: `Bearer ${KEYS.full}`, 'x-answers-api-key': KEYS.full },
  },
] as const;

describe.each(OPERATIONS)('$method $path ($id)', (operation) => {
  it.each(CASES)('with $name', async (credential) => {
    const headers =
      credential.headers === 'lacking'
        ? { authorization: `Bearer ${LACKING[operation.permission].key}` }
        : credential.headers;
    const before = mock.controls.export();
    const response = await call(operation.id, operation.method, operation.path, {
      key: null,
      headers,
      body: 'body' in operation ? operation.body : undefined,
    });
    if (!('code' in credential)) {
      expect(response.status).toBe(operation.ok);
      return;
    }
    expect(response.status).toBe(401);
    expect(response.json.code).toBe(credential.code);
    expect(response.headers.get('www-authenticate')).toContain(credential.challenge);
    // A refusal leaks no data and changes nothing.
    expect(response.text).not.toContain(collection.name);
    expect(mock.controls.export()).toEqual(before);
  });
});

it('ignores a key sent in the query string', async () => {
  const response = await call('listCollections', 'GET', `/collections?api_key=${KEYS.full}`, {
    key: null,
  });
  expect(response.status).toBe(401);
  expect(response.json.code).toBe('missing_credentials');
});

describe('keys change only through a load', () => {
  it('refuses a change in place (it would be served from cached answers) and honours a load', async () => {
    const { assemble } = await import('../../src/assemble.ts');
    const { send } = await import('../support/in-process.ts');
    const { mock, state: mockState } = await assemble();
    expect((await send(mock, { path: '/collections' })).status).toBe(200);
    const keys = mockState.store.apiKeys;
    expect(() => Object.assign(keys[0]!, { active: false })).toThrow(TypeError);
    expect(() => (keys as unknown[]).push({})).toThrow(TypeError);
    expect((await send(mock, { path: '/collections' })).status).toBe(200);
    const state = mock.controls.export();
    for (const key of state.api_keys) if (key.key === KEYS.full) key.active = false;
    await mock.controls.load(state);
    expect((await send(mock, { path: '/collections' })).status).toBe(401);
  });
});
