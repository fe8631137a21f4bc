import { expect, it } from 'vitest';
import { createMock } from '../../src/index.ts';

// Found by the hardening catalogue: a search without `collection_ids` bound its cursor to the
// account's collections of the moment, so creating (or deleting) any collection turned every
// search walk in progress into 400 invalid_cursor, although the cursor is neither tampered nor
// foreign. The cursor is now bound to the collection_ids as sent ("all" when absent).
it('keeps an account-wide search cursor valid after a collection is created', async () => {
  const mock = await createMock();
  const call = async (method: string, path: string, body: unknown) =>
    (
      await mock.handle({
        method,
        path: `/api/answers/v1${path}`,
        query: new URLSearchParams(),
        headers: new Headers({
          authorization: 'Bearer answers_test_full_acme',
          'content-type': 'application/json',
        }),
        body: new TextEncoder().encode(JSON.stringify(body)),
      })
    ).response;
  const first = JSON.parse((await call('POST', '/search', { query: 'en', limit: 1 })).body!);
  expect(first.next_cursor).toEqual(expect.any(String));
  expect((await call('POST', '/collections', { name: 'created mid-walk' })).status).toBe(201);
  const next = await call('POST', '/search', { query: 'en', limit: 1, cursor: first.next_cursor });
  expect(next.status).toBe(200);
  // Still bound to the query and to explicit collection_ids.
  const other = await call('POST', '/search', { query: 'support', cursor: first.next_cursor });
  expect(JSON.parse(other.body!)).toMatchObject({ code: 'invalid_cursor' });
  const collectionId = mock.controls.export().collections[0]!.id;
  const scoped = await call('POST', '/search', {
    query: 'en',
    collection_ids: [collectionId],
    cursor: first.next_cursor,
  });
  expect(JSON.parse(scoped.body!)).toMatchObject({ code: 'invalid_cursor' });
});
