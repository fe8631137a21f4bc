/**
 * `mock.db` and the API are one source of truth: what a test writes through `mock.db` the API
 * serves at once, what the API writes `mock.db` finds, a record that breaks the schema is refused
 * naming the field with nothing changed, and factories make valid records deterministically.
 */
import { describe, expect, it } from 'vitest';
import { createFactories, createMock, emptyState, MockDbError } from '../../src/index.ts';
import { KEYS } from '../support/keys.ts';
import { send } from '../support/in-process.ts';
import { assemble } from '../../src/assemble.ts';

const AT = '2026-03-01T10:00:00.000Z';
const collectionValues = (id: string, name: string) => ({
  id,
  account_id: 'acme',
  name,
  metadata: { source: 'mock.db' },
  created_at: AT,
  updated_at: AT,
});

describe('mock.db and the API', () => {
  it('serves over the API what a test creates through mock.db', async () => {
    const mock = await createMock({ initialState: emptyState() });
    await mock.db.collections.create(collectionValues('col_dbdbdbdbdbdbdbdbdbdb', 'From db'));
    await mock.db.objects.create({
      id: 'obj_dbdbdbdbdbdbdbdbdbdb',
      account_id: 'acme',
      collection_id: 'col_dbdbdbdbdbdbdbdbdbdb',
      content: { text: 'written straight into the store' },
      created_at: AT,
      updated_at: AT,
      version: 1,
    });
    const got = await send(mock, { path: '/collections/col_dbdbdbdbdbdbdbdbdbdb' });
    expect(got.status).toBe(200);
    expect(got.json).toMatchObject({ name: 'From db', object_count: 1 });
    const found = await send(mock, {
      method: 'POST',
      path: '/search',
      body: { query: 'straight' },
    });
    expect(found.json.data.map((hit: any) => hit.object.id)).toEqual(['obj_dbdbdbdbdbdbdbdbdbdb']);
    // Another account still cannot see it.
    const other = await send(mock, {
      path: '/collections/col_dbdbdbdbdbdbdbdbdbdb',
      key: KEYS.globex,
    });
    expect(other.status).toBe(404);
  });

  it('hands out frozen copies: changing one throws, and changes nothing the API serves', async () => {
    const mock = await createMock({ initialState: emptyState() });
    await mock.db.collections.create(collectionValues('col_frfrfrfrfrfrfrfrfrfr', 'Before'));
    const handed = [
      mock.db.collections.findFirst((q) => q.where({ id: 'col_frfrfrfrfrfrfrfrfrfr' }))!,
      ...mock.db.collections.findMany((q) => q.where({ name: 'Before' })),
      ...mock.db.collections.all(),
    ];
    for (const record of handed) {
      expect(() => Object.assign(record, { name: 'After' })).toThrow(TypeError);
      expect(() => Object.assign(record.metadata, { source: 'changed' })).toThrow(TypeError);
    }
    const listed = await send(mock, { path: '/collections' });
    expect(listed.json.data.map((c: any) => [c.name, c.metadata])).toEqual([
      ['Before', { source: 'mock.db' }],
    ]);
    // The name is still taken, and the one record is still the only one.
    const again = await send(mock, {
      method: 'POST',
      path: '/collections',
      body: { name: 'Before' },
    });
    expect(again.status).toBe(409);
    // A copy handed back names the record to change: update is the way to change it.
    const renamed = await mock.db.collections.update(handed[0]!, {
      data: (draft) => {
        draft.name = 'After';
      },
    });
    expect(Object.isFrozen(renamed)).toBe(true);
    expect((await send(mock, { path: '/collections' })).json.data.map((c: any) => c.name)).toEqual([
      'After',
    ]);
  });

  it('finds through mock.db what the API creates, changes and deletes', async () => {
    const mock = await createMock({ initialState: emptyState() });
    const created = await send(mock, {
      method: 'POST',
      path: '/collections',
      body: { name: 'From the API' },
    });
    const id = created.json.id;
    expect(mock.db.collections.findFirst((q) => q.where({ id }))?.name).toBe('From the API');
    await send(mock, { method: 'PATCH', path: `/collections/${id}`, body: { name: 'Renamed' } });
    expect(mock.db.collections.findFirst((q) => q.where({ id }))?.name).toBe('Renamed');
    await send(mock, { method: 'DELETE', path: `/collections/${id}` });
    expect(mock.db.collections.findFirst((q) => q.where({ id }))).toBeUndefined();
    expect(mock.db.collections.count()).toBe(0);
  });

  it('updates and deletes through mock.db as the API would see them, cascade included', async () => {
    const mock = await createMock({ initialState: emptyState() });
    const factories = createFactories(mock, { seed: 7 });
    const collection = await factories.collection({ name: 'Cascade' });
    const [first] = await factories.objects(collection.id, 3);
    await mock.db.objects.update((q) => q.where({ id: first!.id }), {
      data: (draft) => {
        draft.content = { text: 'changed in the db' };
      },
    });
    const got = await send(mock, { path: `/collections/${collection.id}/objects/${first!.id}` });
    expect(got.json.content).toEqual({ text: 'changed in the db' });
    await mock.db.collections.delete((q) => q.where({ id: collection.id }));
    expect(mock.db.objects.count()).toBe(0);
    const gone = await send(mock, { path: `/collections/${collection.id}/objects/${first!.id}` });
    expect(gone.status).toBe(404);
  });

  it.each([
    [{ id: 'not-an-id' }, '/id'],
    [{ name: 42 }, '/name'],
    [{ account_id: 'nobody' }, '/account_id'],
    [{ metadata: { n: Number.POSITIVE_INFINITY } }, 'metadata.n'],
    [{ junk: 1 }, 'unknown field "junk"'],
    [{ object_count: 3 }, 'unknown field "object_count"'],
  ])('refuses a collection with %j, naming %s, and changes nothing', async (override, field) => {
    const mock = await createMock({ initialState: emptyState() });
    const before = mock.controls.export();
    const values = { ...collectionValues('col_aaaaaaaaaaaaaaaaaaaa', 'ok'), ...override };
    const attempt = mock.db.collections.create(values as never);
    await expect(attempt).rejects.toThrow(MockDbError);
    await expect(attempt).rejects.toThrow(field);
    expect(mock.controls.export()).toEqual(before);
  });

  it('refuses an object whose collection is missing or belongs to another account', async () => {
    const mock = await createMock({ initialState: emptyState() });
    await mock.db.collections.create(collectionValues('col_aaaaaaaaaaaaaaaaaaaa', 'acme owns'));
    const object = {
      id: 'obj_aaaaaaaaaaaaaaaaaaaa',
      account_id: 'globex',
      collection_id: 'col_aaaaaaaaaaaaaaaaaaaa',
      content: {},
      created_at: AT,
      updated_at: AT,
      version: 1,
    };
    await expect(mock.db.objects.create(object)).rejects.toThrow('/collection_id');
    expect(mock.db.objects.count()).toBe(0);
  });

  it('refuses a change to a fixed field', async () => {
    const mock = await createMock({ initialState: emptyState() });
    const collection = await createFactories(mock).collection();
    await expect(
      mock.db.collections.update(collection, {
        data: (draft) => {
          draft.account_id = 'globex';
        },
      }),
    ).rejects.toThrow('/account_id cannot change');
  });
});

describe('factories', () => {
  it('make the same names and content from the same seed, with valid ids', async () => {
    const made = async () => {
      const mock = await createMock({ initialState: emptyState(), now: AT });
      const factories = createFactories(mock, { seed: 42 });
      const collection = await factories.collection();
      const objects = await factories.objects(collection.id, 5);
      return { collection, objects };
    };
    const [a, b] = [await made(), await made()];
    expect(a).toEqual(b);
    expect(a.collection.id).toMatch(/^col_[a-z0-9]{20}$/);
    for (const object of a.objects) expect(object.id).toMatch(/^obj_[a-z0-9]{20}$/);
    expect(new Set(a.objects.map((o) => JSON.stringify(o.content))).size).toBe(5);
  });

  it('take overrides and belong to the first full key account by default', async () => {
    const mock = await createMock({ initialState: emptyState() });
    const factories = createFactories(mock);
    const [one, two] = await factories.collections(2, { metadata: { team: 'docs' } });
    expect(one!.account_id).toBe('acme');
    expect(two!.metadata).toEqual({ team: 'docs' });
    const listed = await send(mock, { path: '/collections' });
    expect(listed.json.data.map((c: any) => c.id)).toEqual([one!.id, two!.id]);
  });
});

describe('stored records', () => {
  /** Whether `value` and everything in it is frozen. */
  const deeplyFrozen = (value: unknown): boolean =>
    typeof value !== 'object' || value === null
      ? true
      : Object.isFrozen(value) && Object.values(value).every(deeplyFrozen);

  it('are frozen, every object and array in them, after loads and every kind of write', async () => {
    const { mock, state } = await assemble();
    const created = await send(mock, {
      method: 'POST',
      path: '/collections',
      body: { name: 'Frozen' },
    });
    const id = created.json.id;
    const object = await send(mock, {
      method: 'POST',
      path: `/collections/${id}/objects`,
      body: { content: { nested: { list: [1, { deep: true }] } } },
    });
    await send(mock, {
      method: 'PATCH',
      path: `/collections/${id}`,
      body: { metadata: { added: { inner: ['x'] } } },
    });
    await send(mock, {
      method: 'PATCH',
      path: `/collections/${id}/objects/${object.json.id}`,
      body: { content: { patched: { more: [2] } } },
    });
    await mock.db.objects.update((q) => q.where({ id: object.json.id }), {
      data: (draft) => {
        draft.content = { through: { mock: ['db'] } };
      },
    });
    const store = state.store;
    const records = [...store.allCollections()].flatMap((c) => [c, ...store.objectsOf(c.id)]);
    expect(records.length).toBeGreaterThan(100);
    const thawed = records.filter((record) => !deeplyFrozen(record)).map((record) => record.id);
    expect(thawed).toEqual([]);
    expect(deeplyFrozen({ thawed: {} })).toBe(false);
  });
});
