/**
 * Concurrency (issue "Hardening", part 3): concurrent creates of objects and collections.
 * Many requests in flight at once (Promise.all), through `mock.handle` and against the real HTTP
 * server. No sleeps: every assertion holds whatever order the requests are answered in.
 */
import { describe, expect, it } from 'vitest';
import { GLOBEX, onFreshMock, TRANSPORTS } from './transports.ts';

describe.each(TRANSPORTS)('%s', (name, open) => {
  const { current, createCollection, walk } = onFreshMock(open);

  it('concurrent creates produce unique ids and true counts; one name, one winner', async () => {
    const t = current();
    const collection = await createCollection('bulk');
    const created = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        t.call('createObject', 'POST', `/collections/${collection.id}/objects`, {
          content: { i },
        }),
      ),
    );
    expect(created.map((r) => r.status)).toEqual(Array(100).fill(201));
    const ids = created.map((r) => r.json.id);
    expect(new Set(ids).size).toBe(100);
    expect(new Set(created.map((r) => r.json.created_at)).size).toBe(100);
    const got = await t.call('getCollection', 'GET', `/collections/${collection.id}`);
    expect(got.json.object_count).toBe(100);
    const listed = await walk('listObjects', `/collections/${collection.id}/objects`, 7, 'asc');
    expect(listed.map((o) => o.id).sort()).toEqual([...ids].sort());

    const collections = await Promise.all([
      ...Array.from({ length: 40 }, (_, i) =>
        t.call('createCollection', 'POST', '/collections', { name: `distinct ${i}` }),
      ),
      ...Array.from({ length: 10 }, (_, i) =>
        t.call('createCollection', 'POST', '/collections', { name: `distinct ${i}` }, GLOBEX),
      ),
    ]);
    expect(collections.map((r) => r.status)).toEqual(Array(50).fill(201));
    expect(new Set(collections.map((r) => r.json.id)).size).toBe(50);
    expect(await walk('listCollections', '/collections', 9, 'asc')).toHaveLength(41);

    const sameName = await Promise.all(
      Array.from({ length: 25 }, () =>
        t.call('createCollection', 'POST', '/collections', { name: 'contested' }),
      ),
    );
    expect(sameName.map((r) => r.status).sort()).toEqual([201, ...Array(24).fill(409)]);
    const names = t.mock.controls
      .export()
      .collections.filter((c) => c.account_id === 'acme')
      .map((c) => c.name);
    expect(new Set(names).size).toBe(names.length);
  });
});
