/**
 * Concurrency (issue "Hardening", part 3): writes racing writes and deletes.
 * Many requests in flight at once (Promise.all), through `mock.handle` and against the real HTTP
 * server. No sleeps: every assertion holds whatever order the requests are answered in.
 */
import { describe, expect, it } from 'vitest';
import { onFreshMock, TRANSPORTS } from './transports.ts';

describe.each(TRANSPORTS)('%s', (name, open) => {
  const { current, createCollection, createObjects, walk } = onFreshMock(open);

  it('writes racing writes and deletes: no lost update, no orphan, nothing comes back', async () => {
    const t = current();
    const collection = await createCollection('target');
    const base = `/collections/${collection.id}`;
    const [object, doomed] = await createObjects(collection.id, 2);

    // 20 patches of one object: each applied once, versions 2..21 each answered once.
    const patches = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        t.call('updateObject', 'PATCH', `${base}/objects/${object.id}`, {
          content: { [`k${i}`]: i },
        }),
      ),
    );
    expect(patches.map((r) => r.json.version).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 20 }, (_, i) => i + 2),
    );
    const final = await t.call('getObject', 'GET', `${base}/objects/${object.id}`);
    expect(final.json.version).toBe(21);
    for (let i = 0; i < 20; i++) expect(final.json.content[`k${i}`]).toBe(i);
    const [listed] = await walk('listObjects', `${base}/objects`, 1, 'asc');
    expect(listed).toEqual(final.json);

    // Updates racing the delete of their object: never a 5xx, and the object stays deleted.
    const raced = await Promise.all(
      Array.from({ length: 15 }, (_, i) =>
        i % 3 === 0
          ? t.call('deleteObject', 'DELETE', `${base}/objects/${doomed.id}`)
          : i % 3 === 1
            ? t.call('updateObject', 'PATCH', `${base}/objects/${doomed.id}`, {
                content: { i },
              })
            : t.call('replaceObject', 'PUT', `${base}/objects/${doomed.id}`, { content: { i } }),
      ),
    );
    expect(raced.map((r) => r.status).filter((s) => ![200, 204, 404].includes(s))).toEqual([]);
    expect(raced.filter((r) => r.status === 204)).toHaveLength(1);
    expect((await t.call('getObject', 'GET', `${base}/objects/${doomed.id}`)).status).toBe(404);
    expect(t.mock.controls.export().objects.map((o) => o.id)).toEqual([object.id]);

    // Renames of one collection to distinct names: one final name, the others free again.
    const renames = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        t.call('updateCollection', 'PATCH', base, { name: `renamed ${i}` }),
      ),
    );
    expect(renames.map((r) => r.status)).toEqual(Array(10).fill(200));
    const renamed = await t.call('getCollection', 'GET', base);
    const [inList] = await walk('listCollections', '/collections', 5, 'asc');
    expect(inList).toEqual(renamed.json);
    for (let i = 0; i < 10; i++) {
      const name = `renamed ${i}`;
      const again = await t.call('createCollection', 'POST', '/collections', { name });
      expect(again.status, name).toBe(name === renamed.json.name ? 409 : 201);
    }
    // Two collections renamed to one name at once: one 200, one 409.
    const [a, b] = [await createCollection('a'), await createCollection('b')];
    const clash = await Promise.all(
      [a, b].map((c) => t.call('updateCollection', 'PATCH', `/collections/${c.id}`, { name: 'z' })),
    );
    expect(clash.map((r) => r.status).sort()).toEqual([200, 409]);

    // Objects created while their collection is deleted: 201 or 404, and no orphan survives.
    const victim = await createCollection('victim');
    const creates = await Promise.all([
      ...Array.from({ length: 10 }, (_, i) =>
        t.call('createObject', 'POST', `/collections/${victim.id}/objects`, { content: { i } }),
      ),
      t.call('deleteCollection', 'DELETE', `/collections/${victim.id}`),
      ...Array.from({ length: 10 }, (_, i) =>
        t.call('createObject', 'POST', `/collections/${victim.id}/objects`, { content: { i } }),
      ),
    ]);
    expect(creates.map((r) => r.status).filter((s) => ![201, 204, 404].includes(s))).toEqual([]);
    const state = t.mock.controls.export();
    expect(state.objects.filter((o) => o.collection_id === victim.id)).toEqual([]);
    // The state is still consistent enough to load back.
    await t.mock.controls.load(state);
    expect(t.mock.controls.export()).toStrictEqual(state);
  });
});
