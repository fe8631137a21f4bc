import { describe, expect, it } from 'vitest';
import './setup.ts';
import {
  addObject,
  AnswersError,
  createCollection,
  deleteCollection,
  findIn,
  getCollection,
  listCollectionNames,
} from './answers-client.ts';

const KEY = 'answers_test_full_acme';

describe('collections the app makes', () => {
  it('creates a collection and counts what it holds', async () => {
    const recipes = await createCollection(KEY, 'Recipes', { team: 'kitchen' });
    await addObject(KEY, recipes.id, { title: 'Slow-cooked ragù' });
    await addObject(KEY, recipes.id, { title: 'Quick pesto' });

    const read = await getCollection(KEY, recipes.id);
    expect(read.object_count).toBe(2);
    expect(read.metadata).toEqual({ team: 'kitchen' });
    expect(await listCollectionNames(KEY)).toContain('Recipes');
  });

  it('finds objects in the collections it names', async () => {
    const recipes = await createCollection(KEY, 'Recipes', {});
    const ragu = await addObject(KEY, recipes.id, { title: 'Slow-cooked ragù' });
    await addObject(KEY, recipes.id, { title: 'Quick pesto' });

    expect(await findIn(KEY, 'ragù', [recipes.id])).toEqual([ragu.id]);
  });

  it('loses a deleted collection for good, with its objects', async () => {
    const drafts = await createCollection(KEY, 'Scratchpad', {});
    await addObject(KEY, drafts.id, { title: 'Unfinished quokka notes' });
    await deleteCollection(KEY, drafts.id);

    await expect(getCollection(KEY, drafts.id)).rejects.toMatchObject({ status: 404 });
    expect(await listCollectionNames(KEY)).not.toContain('Scratchpad');
    expect(await findIn(KEY, 'quokka', [])).toEqual([]);
  });

  it('cannot create with a read-only key', async () => {
    await expect(createCollection('answers_test_readonly_acme', 'Nope', {})).rejects.toEqual(
      new AnswersError(401, 'insufficient_permission'),
    );
  });
});
