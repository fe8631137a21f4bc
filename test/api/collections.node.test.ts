import { describe, expect, it } from 'vitest';
import { call, KEYS, walk } from '../support/api.ts';
import { useMswAssembly } from '../support/msw-setup.ts';
import { defaultState } from '../../src/seed/default-state.ts';

const { mock, state } = await useMswAssembly();
const acme = defaultState.collections.filter((c) => c.account_id === 'acme');
const countOf = (id: string) => defaultState.objects.filter((o) => o.collection_id === id).length;

describe('GET /collections', () => {
  it('returns the caller account collections with true object counts and metadata', async () => {
    const items = await walk('listCollections', '/collections', { limit: 100 });
    expect(items.map((c) => c.id)).toEqual(acme.map((c) => c.id));
    for (const item of items) {
      expect(item.object_count).toBe(countOf(item.id));
      expect(item.metadata).toEqual(acme.find((c) => c.id === item.id)!.metadata);
    }
  });

  it('orders by creation date ascending by default and descending with order=desc', async () => {
    const asc = await walk('listCollections', '/collections', { limit: 2 });
    const desc = await walk('listCollections', '/collections', { limit: 2, order: 'desc' });
    const dates = asc.map((c) => c.created_at);
    expect(dates).toEqual([...dates].sort());
    expect(desc.map((c) => c.id)).toEqual(asc.map((c) => c.id).reverse());
  });

  it('pages without skipping or repeating when items are deleted between pages', async () => {
    const first = await call('listCollections', 'GET', '/collections?limit=2');
    const [a, b] = first.json.data;
    // Delete the last item of the page just read and one not yet read.
    await call('deleteCollection', 'DELETE', `/collections/${b.id}`);
    await call('deleteCollection', 'DELETE', `/collections/${acme[3]!.id}`);
    const rest: any[] = [];
    let cursor = first.json.next_cursor;
    while (cursor) {
      const page = await call(
        'listCollections',
        'GET',
        `/collections?limit=2&cursor=${encodeURIComponent(cursor)}`,
      );
      rest.push(...page.json.data);
      cursor = page.json.next_cursor;
    }
    expect([a.id, b.id, ...rest.map((c) => c.id)]).toEqual(
      acme.map((c) => c.id).filter((id) => id !== acme[3]!.id),
    );
  });

  it('uses a default page size of 20 and refuses a limit outside 1-100', async () => {
    const page = await call('listCollections', 'GET', '/collections');
    expect(page.json.data).toHaveLength(acme.length);
    for (const limit of ['0', '101', '-1', '2.5', 'ten']) {
      const refused = await call('listCollections', 'GET', `/collections?limit=${limit}`);
      expect(refused.status, `limit=${limit}`).toBe(400);
      expect(refused.json.code).toBe('invalid_parameter');
    }
  });

  it('refuses a tampered cursor and a cursor of another list', async () => {
    const page = await call('listCollections', 'GET', '/collections?limit=1');
    const cursor: string = page.json.next_cursor;
    const tampered = `${cursor.slice(0, -1)}${cursor.endsWith('a') ? 'b' : 'a'}`;
    expect(
      (await call('listCollections', 'GET', `/collections?cursor=${tampered}`)).json.code,
    ).toBe('invalid_cursor');
    const desc = await call('listCollections', 'GET', `/collections?order=desc&cursor=${cursor}`);
    expect(desc.status).toBe(400);
    const foreign = await call('listCollections', 'GET', `/collections?cursor=${cursor}`, {
      key: KEYS.globex,
    });
    expect(foreign.json.code).toBe('invalid_cursor');
  });

  it('returns an empty page for an account without collections', async () => {
    const page = await call('listCollections', 'GET', '/collections', { key: KEYS.initech });
    expect(page.json).toEqual({ data: [], has_more: false, next_cursor: null });
  });

  it('answers identically on the /api/answers and /v1 aliases', async () => {
    const canonical = await call('listCollections', 'GET', '/collections');
    for (const base of ['http://answers.test/api/answers', 'http://answers.test/v1']) {
      expect((await call('listCollections', 'GET', '/collections', { base })).json).toEqual(
        canonical.json,
      );
    }
  });
});

describe('POST /collections', () => {
  it('creates an empty collection with system fields and a Location', async () => {
    const created = await call('createCollection', 'POST', '/collections', {
      body: { name: 'Recipes', metadata: { team: 'food' } },
    });
    expect(created.status).toBe(201);
    expect(created.json).toMatchObject({
      name: 'Recipes',
      metadata: { team: 'food' },
      object_count: 0,
    });
    expect(created.json.created_at).toBe('2026-11-22T12:00:00.000Z');
    expect(created.headers.get('location')).toBe(`/api/answers/v1/collections/${created.json.id}`);
    const fetched = await call('getCollection', 'GET', `/collections/${created.json.id}`);
    expect(fetched.json).toEqual(created.json);
  });

  it('refuses a name the account already uses with 409, but not one another account uses', async () => {
    const taken = await call('createCollection', 'POST', '/collections', {
      body: { name: acme[0]!.name },
    });
    expect(taken.status).toBe(409);
    expect(taken.json.code).toBe('collection_name_taken');
    const other = await call('createCollection', 'POST', '/collections', {
      key: KEYS.globex,
      body: { name: acme[0]!.name },
    });
    expect(other.status).toBe(201);
  });

  it('refuses client-sent system fields and unknown fields', async () => {
    const refused = await call('createCollection', 'POST', '/collections', {
      body: { name: 'X', id: 'col_aaaaaaaaaaaaaaaaaaaa' },
    });
    expect(refused.status).toBe(400);
    expect(refused.json.code).toBe('validation_failed');
    expect(refused.json.errors).toEqual([
      expect.objectContaining({ location: 'body', pointer: '/id' }),
    ]);
  });
});

describe('GET /collections/{collection_id}', () => {
  it('returns the collection with its object count', async () => {
    const got = await call('getCollection', 'GET', `/collections/${acme[1]!.id}`);
    expect(got.json).toMatchObject({
      id: acme[1]!.id,
      name: acme[1]!.name,
      object_count: countOf(acme[1]!.id),
    });
  });

  it('answers another account collection exactly like an unknown one', async () => {
    const foreign = await call('getCollection', 'GET', `/collections/${acme[1]!.id}`, {
      key: KEYS.globex,
    });
    const unknown = await call('getCollection', 'GET', '/collections/col_00000000000000000000', {
      key: KEYS.globex,
    });
    expect(foreign.status).toBe(404);
    expect(foreign.json.code).toBe(unknown.json.code);
    expect(foreign.text).not.toContain(acme[1]!.name);
  });

  it('refuses an identifier longer than 128 characters with 400', async () => {
    const long = await call('getCollection', 'GET', `/collections/${'a'.repeat(129)}`);
    expect(long.status).toBe(400);
    expect(long.json.code).toBe('invalid_parameter');
  });
});

describe('PATCH /collections/{collection_id}', () => {
  it('renames and replaces metadata, bumping updated_at only', async () => {
    mock.controls.advanceTime(60_000);
    const patched = await call('updateCollection', 'PATCH', `/collections/${acme[0]!.id}`, {
      body: { name: 'Renamed', metadata: { x: 1 } },
    });
    expect(patched.json).toMatchObject({
      name: 'Renamed',
      metadata: { x: 1 },
      created_at: acme[0]!.created_at,
    });
    expect(patched.json.updated_at).toBe('2026-11-22T12:01:00.000Z');
  });

  it('refuses an empty patch', async () => {
    const refused = await call('updateCollection', 'PATCH', `/collections/${acme[0]!.id}`, {
      body: {},
    });
    expect(refused.status).toBe(400);
  });
});

describe('DELETE /collections/{collection_id}', () => {
  it('removes the collection and every object in it, from gets, lists and search, permanently', async () => {
    const target = acme[0]!;
    const objects = defaultState.objects.filter((o) => o.collection_id === target.id);
    const word = String((objects[0]!.content as { title: string }).title).split(' ')[0]!;
    expect((await call('deleteCollection', 'DELETE', `/collections/${target.id}`)).status).toBe(
      204,
    );

    expect((await call('getCollection', 'GET', `/collections/${target.id}`)).status).toBe(404);
    for (const object of objects) {
      const got = await call('getObject', 'GET', `/collections/${target.id}/objects/${object.id}`);
      expect(got.status).toBe(404);
    }
    const listed = await walk('listCollections', '/collections');
    expect(listed.map((c) => c.id)).not.toContain(target.id);
    const found = await call('searchObjects', 'POST', '/search', {
      body: { query: word, limit: 100 },
    });
    expect(found.json.data.map((hit: any) => hit.collection_id)).not.toContain(target.id);
    expect(state.store.objectsOf(target.id)).toEqual([]);
    expect(mock.controls.export().objects.some((o) => o.collection_id === target.id)).toBe(false);
  });

  it('answers a second delete with 404 and touches nothing else', async () => {
    const before = await walk('listCollections', '/collections');
    await call('deleteCollection', 'DELETE', `/collections/${acme[2]!.id}`);
    const again = await call('deleteCollection', 'DELETE', `/collections/${acme[2]!.id}`);
    expect(again.status).toBe(404);
    const after = await walk('listCollections', '/collections');
    expect(after).toEqual(before.filter((c) => c.id !== acme[2]!.id));
    const globex = await walk('listCollections', '/collections', { key: KEYS.globex });
    expect(globex).toHaveLength(2);
  });

  it('cannot delete another account collection', async () => {
    const refused = await call('deleteCollection', 'DELETE', `/collections/${acme[0]!.id}`, {
      key: KEYS.globex,
    });
    expect(refused.status).toBe(404);
    expect((await call('getCollection', 'GET', `/collections/${acme[0]!.id}`)).status).toBe(200);
  });
});
