/**
 * The `paths` types as a test author uses them: through openapi-fetch, against the mock in msw's
 * `setupServer`. `npm test` type-checks this file, so a generated type that makes an optional
 * field required (a default in openapi.yaml once did) breaks the build, not just a user's.
 */
import createClient from 'openapi-fetch';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { setupAnswersServer, type paths } from '../../src/node/index.ts';
import { KEYS } from '../support/keys.ts';

const { mock, server } = await setupAnswersServer({ now: '2026-01-01T00:00:00.000Z' });
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => mock.controls.reset());
afterAll(() => server.close());

/**
 * Created per test, after `server.listen()`: openapi-fetch keeps the `fetch` it finds when the
 * client is created, and a client made at module load, before msw patched `fetch`, would send
 * its requests past the mock to the network.
 */
function answers() {
  return createClient<paths>({
    baseUrl: 'http://localhost/api/answers/v1',
    headers: { authorization: `Bearer ${KEYS.full}` },
  });
}

it('creates a collection with only a name: metadata is optional', async () => {
  const client = answers();
  const { data, response } = await client.POST('/collections', { body: { name: 'Recipes' } });
  expect(response.status).toBe(201);
  expect(data?.name).toBe('Recipes');
  expect(data?.metadata).toEqual({});
  expect(data?.object_count).toBe(0);
});

it('searches without a limit: the default applies', async () => {
  const client = answers();
  const created = await client.POST('/collections', { body: { name: 'Notes' } });
  const collection_id = created.data!.id;
  await client.POST('/collections/{collection_id}/objects', {
    params: { path: { collection_id } },
    body: { content: { text: 'typed clients find typed things' } },
  });
  const { data, response } = await client.POST('/search', {
    body: { query: 'typed', collection_ids: [collection_id] },
  });
  expect(response.status).toBe(200);
  expect(data?.data.map((hit) => hit.object.content)).toEqual([
    { text: 'typed clients find typed things' },
  ]);
});

it('pages the list with the typed query parameters', async () => {
  const client = answers();
  const first = await client.GET('/collections', { params: { query: { limit: 1 } } });
  expect(first.data?.data).toHaveLength(1);
  const cursor = first.data!.next_cursor!;
  const second = await client.GET('/collections', { params: { query: { limit: 1, cursor } } });
  expect(second.data?.data[0]?.id).not.toBe(first.data?.data[0]?.id);
});
