import { describe, expect, it } from 'vitest';
import { call, KEYS, walk } from '../support/api.ts';
import { useMswAssembly } from '../support/msw-setup.ts';
import { defaultState } from '../../src/seed/default-state.ts';

const { mock, state } = await useMswAssembly();
const faq = defaultState.collections.find((c) => c.name === 'Product FAQ')!;
const faqObjects = defaultState.objects.filter((o) => o.collection_id === faq.id);
const drafts = defaultState.collections.find((c) => c.name === 'Drafts')!;
const objectPath = (id = faqObjects[0]!.id) => `/collections/${faq.id}/objects/${id}`;

describe('GET /collections/{collection_id}/objects/{object_id}', () => {
  it('returns the complete object with every system field', async () => {
    const got = await call('getObject', 'GET', objectPath());
    const { account_id: _owner, ...expected } = faqObjects[0]!;
    expect(got.json).toEqual(expected);
    expect(Object.keys(got.json).sort()).toEqual([
      'collection_id',
      'content',
      'created_at',
      'id',
      'updated_at',
      'version',
    ]);
  });

  it('answers 404 object_not_found for an object of another collection', async () => {
    const other = defaultState.objects.find(
      (o) => o.collection_id !== faq.id && o.account_id === 'acme',
    )!;
    const got = await call('getObject', 'GET', objectPath(other.id));
    expect(got.status).toBe(404);
    expect(got.json.code).toBe('object_not_found');
  });

  it('answers 404 collection_not_found for another account, without any of its data', async () => {
    const got = await call('getObject', 'GET', objectPath(), { key: KEYS.globex });
    expect(got.json.code).toBe('collection_not_found');
    expect(got.text).not.toContain(faqObjects[0]!.id);
  });

  it('treats encoded slashes, dots and NUL in ids as unknown identifiers', async () => {
    for (const id of ['..%2F..%2Fcollections', '%2E%2E', 'obj%00', "1'%20OR%20'1'='1"]) {
      const got = await call('getObject', 'GET', objectPath(id));
      expect(got.status, id).toBe(404);
    }
  });
});

describe('GET /collections/{collection_id}/objects', () => {
  it('walks every object of a collection in creation order', async () => {
    const items = await walk('listObjects', `/collections/${faq.id}/objects`, { limit: 7 });
    expect(items.map((o) => o.id)).toEqual(faqObjects.map((o) => o.id));
  });

  it('returns an empty page for an empty collection', async () => {
    const page = await call('listObjects', 'GET', `/collections/${drafts.id}/objects`);
    expect(page.json).toEqual({ data: [], has_more: false, next_cursor: null });
  });
});

describe('POST /collections/{collection_id}/objects', () => {
  it('stores the content and adds the system fields', async () => {
    const created = await call('createObject', 'POST', `/collections/${drafts.id}/objects`, {
      body: { content: { title: 'Draft one', nested: { list: [1, 2] } } },
    });
    expect(created.status).toBe(201);
    expect(created.json).toMatchObject({
      collection_id: drafts.id,
      content: { title: 'Draft one', nested: { list: [1, 2] } },
      version: 1,
      created_at: '2026-11-22T12:00:00.000Z',
    });
    expect(created.json.id).toMatch(/^obj_[a-z0-9]{20}$/);
    const collection = await call('getCollection', 'GET', `/collections/${drafts.id}`);
    expect(collection.json.object_count).toBe(1);
  });

  it.each([
    ['a system field', { content: {}, version: 7 }, 'validation_failed'],
    ['content that is not an object', { content: 'text' }, 'validation_failed'],
    ['no content', {}, 'validation_failed'],
    ['a JSON array', [], 'validation_failed'],
  ])('refuses %s with 400', async (_name, body, code) => {
    const refused = await call('createObject', 'POST', `/collections/${drafts.id}/objects`, {
      body,
    });
    expect(refused.status).toBe(400);
    expect(refused.json.code).toBe(code);
  });

  it('refuses malformed JSON, a wrong content type and an oversized body', async () => {
    const path = `/collections/${drafts.id}/objects`;
    expect((await call('createObject', 'POST', path, { body: '{"content":' })).json.code).toBe(
      'malformed_json',
    );
    const plain = await call('createObject', 'POST', path, {
      body: '{}',
      headers: { 'content-type': 'text/plain' },
    });
    expect(plain.status).toBe(415);
    const huge = await call('createObject', 'POST', path, {
      body: { content: { text: 'x'.repeat(1_100_000) } },
    });
    expect(huge.status).toBe(413);
    expect(state.store.objectCount(drafts.id)).toBe(0);
  });

  it('keeps a "__proto__" key as plain content without polluting any prototype', async () => {
    const created = await call('createObject', 'POST', `/collections/${drafts.id}/objects`, {
      body: '{"content":{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}}}',
    });
    expect(created.status).toBe(201);
    const patched = await call(
      'updateObject',
      'PATCH',
      `/collections/${drafts.id}/objects/${created.json.id}`,
      {
        body: '{"content":{"__proto__":{"polluted":true}}}',
      },
    );
    expect(patched.status).toBe(200);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.prototype).not.toHaveProperty('polluted');
  });
});

describe('PUT /collections/{collection_id}/objects/{object_id}', () => {
  it('replaces the content and bumps the version', async () => {
    mock.controls.advanceTime(1_000);
    const replaced = await call('replaceObject', 'PUT', objectPath(), {
      body: { content: { only: 'this' } },
    });
    expect(replaced.json).toMatchObject({
      content: { only: 'this' },
      version: 2,
      created_at: faqObjects[0]!.created_at,
    });
    expect(replaced.json.updated_at).toBe('2026-11-22T12:00:01.000Z');
    expect((await call('getObject', 'GET', objectPath())).json.content).toEqual({ only: 'this' });
  });

  it('answers 404 for an unknown object instead of creating it', async () => {
    const refused = await call('replaceObject', 'PUT', objectPath('obj_00000000000000000000'), {
      body: { content: {} },
    });
    expect(refused.status).toBe(404);
  });
});

describe('PATCH /collections/{collection_id}/objects/{object_id}', () => {
  it('merges the patch into the content (RFC 7396), null removing a member', async () => {
    const before = faqObjects[0]!.content as Record<string, unknown>;
    const patched = await call('updateObject', 'PATCH', objectPath(), {
      body: { content: { title: 'New title', author: null, extra: { a: 1 } } },
      headers: { 'content-type': 'application/merge-patch+json' },
    });
    const { author: _removed, ...kept } = before;
    expect(patched.json.content).toEqual({ ...kept, title: 'New title', extra: { a: 1 } });
    expect(patched.json.version).toBe(2);
  });
});

describe('DELETE /collections/{collection_id}/objects/{object_id}', () => {
  it('removes the object and lowers the collection count', async () => {
    expect((await call('deleteObject', 'DELETE', objectPath())).status).toBe(204);
    expect((await call('getObject', 'GET', objectPath())).status).toBe(404);
    expect((await call('deleteObject', 'DELETE', objectPath())).status).toBe(404);
    const collection = await call('getCollection', 'GET', `/collections/${faq.id}`);
    expect(collection.json.object_count).toBe(faqObjects.length - 1);
  });
});
