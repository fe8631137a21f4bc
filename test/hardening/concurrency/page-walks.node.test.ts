/**
 * Concurrency (issue "Hardening", part 3): page walks while another task deletes.
 * Many requests in flight at once (Promise.all), through `mock.handle` and against the real HTTP
 * server. No sleeps: every assertion holds whatever order the requests are answered in.
 */
import { describe, expect, it } from 'vitest';
import { onFreshMock, TRANSPORTS } from './transports.ts';

describe.each(TRANSPORTS)('%s', (name, open) => {
  const { current, createCollection, createObjects, walk } = onFreshMock(open);

  it('page walks while another task deletes: valid pages, no repeats, every survivor seen', async () => {
    const t = current();
    const collections: any[] = [];
    for (let i = 0; i < 60; i++) collections.push(await createCollection(`c${i}`));
    const host = collections[0]!;
    const objects = await createObjects(host.id, 60);
    const doomedCollections = new Set(collections.filter((_, i) => i % 3 === 2).map((c) => c.id));
    const doomedObjects = new Set(objects.filter((_, i) => i % 3 === 1).map((o) => o.id));

    const deleter = async () => {
      for (const id of doomedCollections) {
        const r = await t.call('deleteCollection', 'DELETE', `/collections/${id}`);
        expect(r.status).toBe(204);
      }
      for (const id of doomedObjects) {
        const r = await t.call('deleteObject', 'DELETE', `/collections/${host.id}/objects/${id}`);
        expect(r.status).toBe(204);
      }
    };
    const plans = [1, 2, 3, 5, 8, 13, 21, 100].flatMap((limit) =>
      (['asc', 'desc'] as const).map((order) => ({ limit, order })),
    );
    const [, ...walks] = await Promise.all([
      deleter(),
      ...plans.map((p) => walk('listCollections', '/collections', p.limit, p.order)),
      ...plans.map((p) => walk('listObjects', `/collections/${host.id}/objects`, p.limit, p.order)),
    ]);

    const check = (items: any[], all: any[], doomed: Set<string>, order: string) => {
      const ids = items.map((i) => i.id);
      expect(new Set(ids).size, 'an item repeats within one walk').toBe(ids.length);
      const known = new Set(all.map((x) => x.id));
      expect(
        ids.filter((id) => !known.has(id)),
        'items never created',
      ).toEqual([]);
      const survivors = all.filter((x) => !doomed.has(x.id)).map((x) => x.id);
      expect(
        survivors.filter((id) => !ids.includes(id)),
        'survivors missed',
      ).toEqual([]);
      const keys = items.map((i) => `${i.created_at} ${i.id}`);
      const sorted = [...keys].sort();
      expect(keys).toEqual(order === 'asc' ? sorted : sorted.reverse());
    };
    walks.forEach((items, i) => {
      const plan = plans[i % plans.length]!;
      if (i < plans.length) check(items, collections, doomedCollections, plan.order);
      else check(items, objects, doomedObjects, plan.order);
    });

    if (name === 'through mock.handle') {
      // In process the interleaving is deterministic: prove the walks overlapped the deletes
      // (one saw an item that was deleted later, another missed one).
      const sawDoomed = walks.map((items) => items.filter((i) => doomedCollections.has(i.id)));
      expect(
        sawDoomed.some((seen) => seen.length > 0),
        'a walk saw a collection deleted later',
      ).toBe(true);
      expect(
        sawDoomed.some((seen, i) => i < plans.length && seen.length < doomedCollections.size),
        'a walk missed a collection deleted earlier',
      ).toBe(true);
    }

    // After the deletes, a walk is exactly the survivors.
    const after = await walk('listCollections', '/collections', 7, 'asc');
    expect(after.map((c) => c.id)).toEqual(
      collections.filter((c) => !doomedCollections.has(c.id)).map((c) => c.id),
    );
  });
});
