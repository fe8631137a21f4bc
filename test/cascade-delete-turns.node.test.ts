/**
 * A cascade delete lets the event loop run while a large collection's objects leave the search
 * index (object-list.ts `releaseAll`), and no request sees the collection half deleted.
 */
import { expect, it } from 'vitest';
import { RELEASE_TURN_OBJECTS } from '../src/core/store/object-list.ts';
import { createMock } from '../src/index.ts';
import { emptyState } from '../src/seed/empty-state.ts';
import { mockRequest } from './support/in-process.ts';

const request = (method: string, path: string, body?: unknown) =>
  mockRequest({ method, path, body });

it('lets the event loop run while a large collection leaves the search index', async () => {
  const mock = await createMock({ initialState: emptyState, now: '2026-11-23T12:00:00.000Z' });
  const created = await mock.handle(request('POST', '/collections', { name: 'large' }));
  const collection = JSON.parse(created.body!) as { id: string };
  const count = 2 * RELEASE_TURN_OBJECTS + 50;
  for (let i = 0; i < count; i++) {
    await mock.db.objects.create({
      id: `obj_${String(i).padStart(20, '0')}`,
      account_id: 'acme',
      collection_id: collection.id,
      content: { text: `shared words and a word of its own w${i}` },
      created_at: mock.controls.now(),
      updated_at: mock.controls.now(),
      version: 1,
    });
  }
  let turns = 0;
  let deleting = true;
  const tick = () => {
    turns += 1;
    if (deleting) setImmediate(tick);
  };
  setImmediate(tick);
  const started = turns;
  const deleted = mock.handle(request('DELETE', `/collections/${collection.id}`));
  // Requests sent meanwhile wait for the delete and see it whole.
  const search = mock.handle(request('POST', '/search', { query: 'shared' }));
  const read = mock.handle(request('GET', `/collections/${collection.id}`));
  expect((await deleted).status).toBe(204);
  deleting = false;
  // One turn at least per RELEASE_TURN_OBJECTS objects: the loop ran during the delete.
  expect(turns - started).toBeGreaterThanOrEqual(2);
  expect((await read).status).toBe(404);
  expect(JSON.parse((await search).body!)).toMatchObject({ data: [], total: 0 });
  expect(mock.controls.export().objects).toEqual([]);
});
