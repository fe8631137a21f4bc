/**
 * Concurrency (issue "Hardening", part 3): deletes racing reads, and deletes racing each other.
 * Many requests in flight at once (Promise.all), through `mock.handle` and against the real HTTP
 * server. No sleeps: every assertion holds whatever order the requests are answered in.
 */
import { describe, expect, it } from 'vitest';
import type { Observed } from '../fuzz-support.ts';
import { onFreshMock, TRANSPORTS } from './transports.ts';

describe.each(TRANSPORTS)('%s', (name, open) => {
  const { current, createCollection, createObjects } = onFreshMock(open);

  it('deletes racing reads: each read is a complete 200 or a 404, never partial, never 5xx', async () => {
    const t = current();
    const collection = await createCollection('raced');
    const objects = await createObjects(collection.id, 20);
    const byId = new Map(objects.map((o) => [o.id, o]));
    const base = `/collections/${collection.id}`;

    type Task = { kind: string; run: () => Promise<Observed> };
    const reads = (round: number): Task[] =>
      objects.flatMap((o, i) => [
        { kind: 'object', run: () => t.call('getObject', 'GET', `${base}/objects/${o.id}`) },
        ...(i % 4 === round % 4
          ? [
              { kind: 'collection', run: () => t.call('getCollection', 'GET', base) },
              {
                kind: 'page',
                run: () => t.call('listObjects', 'GET', `${base}/objects?limit=7`),
              },
              {
                kind: 'search',
                run: () =>
                  t.call('searchObjects', 'POST', '/search', {
                    query: 'race',
                    collection_ids: [collection.id],
                    limit: 50,
                  }),
              },
            ]
          : []),
      ]);
    const tasks: Task[] = [
      ...reads(0),
      ...objects.slice(0, 5).map((o) => ({
        kind: 'delete object',
        run: () => t.call('deleteObject', 'DELETE', `${base}/objects/${o.id}`),
      })),
      ...reads(1),
      { kind: 'delete collection', run: () => t.call('deleteCollection', 'DELETE', base) },
      ...reads(2),
      ...reads(3),
    ];
    const results = await Promise.all(tasks.map((task) => task.run()));

    results.forEach((r, i) => {
      const { kind } = tasks[i]!;
      if (kind === 'delete collection') return expect(r.status).toBe(204);
      if (kind === 'delete object') return expect([204, 404]).toContain(r.status);
      if (r.status === 404) {
        return expect(['collection_not_found', 'object_not_found']).toContain(r.json.code);
      }
      expect(r.status, `${kind}: ${r.text}`).toBe(200);
      if (kind === 'object') expect(r.json).toEqual(byId.get(r.json.id));
      if (kind === 'collection') {
        expect(r.json).toMatchObject({ id: collection.id, name: 'raced' });
        expect(r.json.object_count).toBeLessThanOrEqual(objects.length);
      }
      if (kind === 'page') for (const item of r.json.data) expect(item).toEqual(byId.get(item.id));
      if (kind === 'search') {
        expect(r.json.total).toBe(r.json.data.length);
        for (const hit of r.json.data) expect(hit.object).toEqual(byId.get(hit.object.id));
      }
    });

    // Afterwards everything is gone, everywhere.
    expect((await t.call('getCollection', 'GET', base)).status).toBe(404);
    for (const o of objects)
      expect((await t.call('getObject', 'GET', `${base}/objects/${o.id}`)).status).toBe(404);
    const found = await t.call('searchObjects', 'POST', '/search', { query: 'race' });
    expect(found.json.total).toBe(0);
    expect(t.mock.controls.export().objects).toEqual([]);
  });

  it('double deletes racing: exactly one 204, the rest 404', async () => {
    const t = current();
    const first = await createCollection('first');
    await createObjects(first.id, 5);
    const second = await createCollection('second');
    const [object] = await createObjects(second.id, 3);
    const third = await createCollection('third');
    const [other] = await createObjects(third.id, 2);

    const statuses = (rs: Observed[]) => rs.map((r) => r.status).sort();
    const collectionDeletes = await Promise.all(
      Array.from({ length: 30 }, () =>
        t.call('deleteCollection', 'DELETE', `/collections/${first.id}`),
      ),
    );
    expect(statuses(collectionDeletes)).toEqual([204, ...Array(29).fill(404)]);
    const objectDeletes = await Promise.all(
      Array.from({ length: 30 }, () =>
        t.call('deleteObject', 'DELETE', `/collections/${second.id}/objects/${object.id}`),
      ),
    );
    expect(statuses(objectDeletes)).toEqual([204, ...Array(29).fill(404)]);

    // An object's deletes racing its collection's deletes.
    const mixed = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        i % 2
          ? t.call('deleteCollection', 'DELETE', `/collections/${third.id}`)
          : t.call('deleteObject', 'DELETE', `/collections/${third.id}/objects/${other.id}`),
      ),
    );
    const [ofCollection, ofObject] = [1, 0].map((odd) =>
      mixed.filter((_, i) => i % 2 === odd).map((r) => r.status),
    );
    expect(ofCollection!.filter((s) => s === 204)).toHaveLength(1);
    expect(ofObject!.filter((s) => s === 204).length).toBeLessThanOrEqual(1);
    expect([...ofCollection!, ...ofObject!].filter((s) => s !== 204 && s !== 404)).toEqual([]);

    const state = t.mock.controls.export();
    expect(state.collections.map((c) => c.id)).toEqual([second.id]);
    expect(state.objects).toHaveLength(2);
  });
});
