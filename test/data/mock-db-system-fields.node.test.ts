/**
 * `mock.db`'s `create` fills the system fields a test leaves out as the API fills them: an id
 * from the mock's own sequence, timestamps from its clock, an object's version 1 and owner from
 * its collection, a collection's owner from the first active key that may read, write and search.
 */
import { describe, expect, it } from 'vitest';
import { createMock, emptyState, MockDbError } from '../../src/index.ts';
import { KEYS } from '../support/keys.ts';
import { send } from '../support/in-process.ts';

const NOW = '2026-03-01T10:00:00.000Z';

describe('mock.db fills the system fields left out', () => {
  it('gives a collection an id, an owner and timestamps, and the API serves it', async () => {
    const mock = await createMock({ initialState: emptyState(), now: NOW });
    const made = await mock.db.collections.create({ name: 'Recipes', metadata: {} });
    expect(made.id).toMatch(/^col_/);
    expect(made.account_id).toBe('acme');
    expect(made.created_at).toBe(made.updated_at);
    expect(Date.parse(made.created_at)).toBeGreaterThanOrEqual(Date.parse(NOW));
    const got = await send(mock, { path: `/collections/${made.id}`, key: KEYS.full });
    expect(got.status).toBe(200);
    expect(got.json).toMatchObject({ id: made.id, name: 'Recipes' });
  });

  it("gives an object an id, its collection's owner, timestamps and version 1", async () => {
    const mock = await createMock({ initialState: emptyState(), now: NOW });
    const parent = await mock.db.collections.create({
      name: 'Globex notes',
      metadata: {},
      account_id: 'globex',
    });
    const made = await mock.db.objects.create({
      collection_id: parent.id,
      content: { text: 'filled in' },
    });
    expect(made).toMatchObject({ account_id: 'globex', collection_id: parent.id, version: 1 });
    expect(made.id).toMatch(/^obj_/);
    // Later than its collection: the mock's clock moves on with each record it stamps.
    expect(Date.parse(made.created_at)).toBeGreaterThan(Date.parse(parent.created_at));
    const got = await send(mock, {
      path: `/collections/${parent.id}/objects/${made.id}`,
      key: KEYS.globex,
    });
    expect(got.status).toBe(200);
  });

  it('keeps the fields a test gives, and hands out a fresh id each time', async () => {
    const mock = await createMock({ initialState: emptyState(), now: NOW });
    const given = await mock.db.collections.create({
      id: 'col_gggggggggggggggggggg',
      name: 'Given',
      metadata: {},
      created_at: '2026-01-01T00:00:00.000Z',
    });
    expect(given).toMatchObject({
      id: 'col_gggggggggggggggggggg',
      created_at: '2026-01-01T00:00:00.000Z',
      updated_at: '2026-01-01T00:00:00.000Z',
    });
    const [a, b] = await Promise.all([
      mock.db.objects.create({ collection_id: given.id, content: {} }),
      mock.db.objects.create({ collection_id: given.id, content: {} }),
    ]);
    expect(a!.id).not.toBe(b!.id);
  });

  it('refuses an object whose collection does not exist, naming the field', async () => {
    const mock = await createMock({ initialState: emptyState() });
    const refused = mock.db.objects.create({
      collection_id: 'col_nonenonenonenonenone',
      content: {},
    });
    await expect(refused).rejects.toThrow(MockDbError);
    await expect(refused).rejects.toThrow('/collection_id names no collection');
    expect(mock.db.objects.count()).toBe(0);
  });

  it('refuses a collection without an owner when no key may read, write and search', async () => {
    const mock = await createMock({
      initialState: { ...emptyState(), api_keys: [] },
    });
    await expect(mock.db.collections.create({ name: 'Orphan', metadata: {} })).rejects.toThrow(
      '/account_id is missing',
    );
    expect(mock.db.collections.count()).toBe(0);
  });
});
