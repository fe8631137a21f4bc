/**
 * Concurrency (issue "Hardening", part 3): many requests in flight at once (Promise.all), through
 * `mock.handle` and against the real HTTP server. No sleeps: every assertion holds whatever order
 * the requests are answered in, so the tests are deterministic.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createMock, type AnswersMock } from '../../src/index.ts';
import { validateResponse } from '../../src/openapi/response-validation.ts';
import { startServer } from '../../src/node/server.ts';
import { emptyState } from '../../src/seed/empty-state.ts';
import { jsonEqual, observe, send, type Observed } from './fuzz-support.ts';

const ACME = 'answers_test_full_acme';
const GLOBEX = 'answers_test_full_globex';

interface Transport {
  mock: AnswersMock;
  /** Sends a JSON request under /api/answers/v1 and checks the answer against openapi.yaml. */
  call(
    operationId: string,
    method: string,
    path: string,
    body?: unknown,
    key?: string,
  ): Promise<Observed>;
  close(): Promise<void>;
}

function checked(operationId: string, method: string, path: string, response: Observed) {
  expect(response.status, `${method} ${path}: ${response.text.slice(0, 200)}`).toBeLessThan(500);
  const found = validateResponse(operationId, {
    status: response.status,
    headers: response.headers,
    body: response.text,
  });
  expect(found, `${method} ${path} -> ${response.status} breaks openapi.yaml`).toEqual([]);
  return response;
}

async function viaHandle(): Promise<Transport> {
  const mock = await createMock({ initialState: emptyState, now: '2026-11-22T12:00:00.000Z' });
  return {
    mock,
    call: async (operationId, method, path, body, key = ACME) =>
      checked(operationId, method, path, await send(mock, key, method, path, body)),
    close: async () => {},
  };
}

async function viaHttp(): Promise<Transport> {
  const mock = await createMock({ initialState: emptyState, now: '2026-11-22T12:00:00.000Z' });
  const server = await startServer({ mock, port: 0, quiet: true });
  return {
    mock,
    async call(operationId, method, path, body, key = ACME) {
      const headers: Record<string, string> = { authorization: `Bearer ${key}` };
      if (body !== undefined) headers['content-type'] = 'application/json';
      const response = await fetch(`${server.url}/api/answers/v1${path}`, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await response.text();
      return checked(operationId, method, path, observe(response.status, response.headers, text));
    },
    close: () => server.close(),
  };
}

describe.each([
  ['through mock.handle', viaHandle],
  ['over HTTP', viaHttp],
])('%s', (name, open) => {
  let t: Transport;
  beforeEach(async () => {
    t = await open();
  });
  afterEach(() => t.close());

  async function createCollection(name: string, key = ACME) {
    const created = await t.call('createCollection', 'POST', '/collections', { name }, key);
    expect(created.status).toBe(201);
    return created.json;
  }

  /** Creates `n` objects one after the other; returns them as the API answered them. */
  async function createObjects(collectionId: string, n: number) {
    const objects: any[] = [];
    for (let i = 0; i < n; i++) {
      const content = { title: `object ${i} race`, tags: ['race', `n${i}`], nested: { i } };
      const created = await t.call('createObject', 'POST', `/collections/${collectionId}/objects`, {
        content,
      });
      expect(created.status).toBe(201);
      objects.push(created.json);
    }
    return objects;
  }

  /** Walks a list concurrently with other tasks; checks every page; returns the ids in order. */
  async function walk(operationId: string, path: string, limit: number, order: 'asc' | 'desc') {
    const items: any[] = [];
    let cursor: string | null = null;
    for (let pages = 0; pages < 500; pages++) {
      const query = new URLSearchParams({ limit: String(limit), order });
      if (cursor) query.set('cursor', cursor);
      const page = await t.call(operationId, 'GET', `${path}?${query}`);
      expect(page.status, page.text).toBe(200);
      expect(page.json.data.length).toBeLessThanOrEqual(limit);
      items.push(...page.json.data);
      cursor = page.json.next_cursor;
      if (!cursor) return items;
    }
    throw new Error(`the walk of ${path} did not end`);
  }

  it('deletes racing reads: each read is a complete 200 or a 404, never partial, never 5xx', async () => {
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
    expect([...ofCollection!, ...ofObject!].every((s) => s === 204 || s === 404)).toBe(true);

    const state = t.mock.controls.export();
    expect(state.collections.map((c) => c.id)).toEqual([second.id]);
    expect(state.objects).toHaveLength(2);
  });

  it('page walks while another task deletes: valid pages, no repeats, every survivor seen', async () => {
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
      expect(ids.every((id) => known.has(id))).toBe(true);
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
      expect(sawDoomed.some((seen) => seen.length > 0)).toBe(true);
      expect(
        sawDoomed.some((seen, i) => i < plans.length && seen.length < doomedCollections.size),
      ).toBe(true);
    }

    // After the deletes, a walk is exactly the survivors.
    const after = await walk('listCollections', '/collections', 7, 'asc');
    expect(after.map((c) => c.id)).toEqual(
      collections.filter((c) => !doomedCollections.has(c.id)).map((c) => c.id),
    );
  });

  it('concurrent creates produce unique ids and true counts; one name, one winner', async () => {
    const collection = await createCollection('bulk');
    const created = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        t.call('createObject', 'POST', `/collections/${collection.id}/objects`, {
          content: { i },
        }),
      ),
    );
    expect(created.every((r) => r.status === 201)).toBe(true);
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
    expect(collections.every((r) => r.status === 201)).toBe(true);
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

  it('writes racing writes and deletes: no lost update, no orphan, nothing comes back', async () => {
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
    expect(raced.every((r) => [200, 204, 404].includes(r.status))).toBe(true);
    expect(raced.filter((r) => r.status === 204)).toHaveLength(1);
    expect((await t.call('getObject', 'GET', `${base}/objects/${doomed.id}`)).status).toBe(404);
    expect(t.mock.controls.export().objects.map((o) => o.id)).toEqual([object.id]);

    // Renames of one collection to distinct names: one final name, the others free again.
    const renames = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        t.call('updateCollection', 'PATCH', base, { name: `renamed ${i}` }),
      ),
    );
    expect(renames.every((r) => r.status === 200)).toBe(true);
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
    expect(creates.every((r) => [201, 204, 404].includes(r.status))).toBe(true);
    const state = t.mock.controls.export();
    expect(state.objects.filter((o) => o.collection_id === victim.id)).toEqual([]);
    // The state is still consistent enough to load back.
    await t.mock.controls.load(state);
    expect(jsonEqual(t.mock.controls.export(), state)).toBe(true);
  });
});
