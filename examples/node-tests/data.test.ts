/**
 * Seeding with factories, inspecting with `mock.db`, overriding one operation and leaving one
 * out: the snippets of the README's test-author section, run as they are (the docs test checks
 * that the README still shows exactly these regions, and runs them on msw 2 and msw 3).
 */
// #region test-head
import { http, HttpResponse } from 'msw';
import { createFactories } from 'answers-mock-kit';
import { beforeEach, describe, expect, it } from 'vitest';
import { AnswersError, deleteCollection, listCollectionNames, search } from './answers-client.ts';
import { handlers, mock, server } from './setup.ts';

const KEY = 'answers_test_full_acme'; // a development key of the seed (README: Development keys)
// #endregion test-head

describe('data for a test', () => {
  // #region seed
  it('shows a collection seeded with factories', async () => {
    const factories = createFactories(mock, { seed: 1 }); // same seed, same names and content
    const recipes = await factories.collection({ name: 'Recipes' });
    await factories.objects(recipes.id, 30, { content: { text: 'slow-cooked ragù' } });

    expect(await listCollectionNames(KEY)).toContain('Recipes');
    expect(await search(KEY, 'ragù')).toBe(30);
  });
  // #endregion seed

  // #region inspect
  it('deletes a collection with its objects', async () => {
    const [faq] = mock.db.collections.findMany((q) => q.where({ name: 'Product FAQ' }));
    await deleteCollection(KEY, faq!.id);

    expect(mock.db.collections.findFirst((q) => q.where({ id: faq!.id }))).toBeUndefined();
    expect(mock.db.objects.findMany((q) => q.where({ collection_id: faq!.id }))).toEqual([]);
  });
  // #endregion inspect

  // #region override
  it('shows an error when listing fails', async () => {
    server.use(
      http.get('https://answers.example.com/api/answers/v1/collections', () =>
        HttpResponse.json({ code: 'internal_error' }, { status: 503 }),
      ),
    ); // this test only: resetHandlers() after each test puts the mock back

    await expect(listCollectionNames(KEY)).rejects.toEqual(new AnswersError(503, 'internal_error'));
  });
  // #endregion override
});

// #region leave-out
describe('without search', () => {
  beforeEach(() => server.use(handlers.leaveOut('searchObjects')));

  it('fails the search, nothing else', async () => {
    await expect(search(KEY, 'quokka')).rejects.toThrow(); // unhandled: the 'error' strategy
    expect(await listCollectionNames(KEY)).toContain('Product FAQ');
  });
});

describe('with search', () => {
  it('has search back after resetHandlers()', async () => {
    expect(await search(KEY, 'quokka')).toBe(0); // answered by the mock again
  });
});
// #endregion leave-out
