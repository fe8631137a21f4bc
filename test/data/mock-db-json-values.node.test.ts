/**
 * `mock.db` takes JSON values only, and keeps copies (issue 34, item 4). A `Date`, a typed array
 * or a class instance in content was stored by reference and unfrozen, so changing it later
 * changed what the API answered while its caches and the search index stayed old; functions were
 * stored; a cyclic object ran the process out of memory. Each is now a `MockDbError` naming where
 * the value is, with nothing stored.
 */
import { describe, expect, it } from 'vitest';
import { assemble } from '../../src/assemble.ts';
import { emptyState, MockDbError } from '../../src/index.ts';
import { send } from '../support/in-process.ts';

const AT = '2026-03-01T10:00:00.000Z';
const COLLECTION = 'col_jsonjsonjsonjsonjson';
const OBJECT = 'obj_jsonjsonjsonjsonjson';

class Point {
  x = 1;
}

function cyclic(): Record<string, unknown> {
  const inner: Record<string, unknown> = {};
  const outer = { inner };
  inner.outer = outer;
  return outer;
}

/** A value that is not JSON, and where the message says it is, below `content`. */
const NOT_JSON: Array<[string, () => unknown, string]> = [
  ['a Date', () => new Date(AT), 'when is a Date'],
  ['a typed array', () => new Uint8Array(2), 'when is a Uint8Array'],
  ['a Map', () => new Map(), 'when is a Map'],
  ['a class instance', () => new Point(), 'when is an instance of Point'],
  ['a function', () => () => 1, 'when is a function'],
  ['a symbol', () => Symbol('s'), 'when is a symbol'],
  ['a bigint', () => 1n, 'when is a bigint'],
  ['undefined in an array', () => [1, undefined], 'when[1] is undefined'],
  ['NaN', () => NaN, 'when is NaN'],
  ['Infinity', () => -Infinity, 'when is -Infinity'],
  ['a cycle', cyclic, 'when.inner.outer is a cycle'],
];

/** A mock with one object, and the state behind it. */
async function mockWithObject() {
  const { mock, state } = await assemble({ initialState: emptyState() });
  await mock.db.collections.create({
    id: COLLECTION,
    account_id: 'acme',
    name: 'json',
    metadata: {},
    created_at: AT,
    updated_at: AT,
  });
  await mock.db.objects.create(objectValues(OBJECT, { text: 'kept' }));
  return { mock, state };
}

function objectValues(id: string, content: Record<string, unknown>) {
  return {
    id,
    account_id: 'acme',
    collection_id: COLLECTION,
    content,
    created_at: AT,
    updated_at: AT,
    version: 1,
  };
}

describe('mock.db with values that are not JSON', () => {
  it.each(NOT_JSON)(
    'refuses %s in content, naming where it is, with nothing stored',
    async (_, value, where) => {
      const { mock, state } = await mockWithObject();
      const { store } = state;
      const version = store.version;
      const message = `content.${where}`;
      const created = mock.db.objects.create(
        objectValues('obj_refusedrefusedrefuse', { nested: 1, when: value() }),
      );
      await expect(created).rejects.toThrow(MockDbError);
      await expect(created).rejects.toThrow(message);
      const updated = mock.db.objects.update((q) => q.where({ id: OBJECT }), {
        data: (draft) => {
          draft.content = { when: value() };
        },
      });
      await expect(updated).rejects.toThrow(message);
      expect(store.version).toBe(version);
      expect(mock.db.objects.count()).toBe(1);
      expect(mock.db.objects.all()[0]!.content).toEqual({ text: 'kept' });
    },
  );

  it('refuses a Date in a collection’s metadata, naming it', async () => {
    const { mock } = await mockWithObject();
    const created = mock.db.collections.create({
      id: 'col_refusedrefusedrefuse',
      account_id: 'acme',
      name: 'dated',
      metadata: { when: new Date(AT) as unknown as string },
      created_at: AT,
      updated_at: AT,
    });
    await expect(created).rejects.toThrow('metadata.when is a Date, not a JSON value');
    expect(mock.db.collections.count()).toBe(1);
  });
});

describe('mock.db keeps copies', () => {
  it('answers what was written, whatever the test does to its own objects afterwards', async () => {
    const { mock } = await mockWithObject();
    const content = { tags: ['first'], nested: { n: 1 } };
    await mock.db.objects.create(objectValues('obj_copycopycopycopycopy', content));
    const replaced = { tags: ['second'] };
    await mock.db.objects.update((q) => q.where({ id: OBJECT }), {
      data: (draft) => {
        draft.content = replaced;
      },
    });
    content.tags.push('later');
    content.nested.n = 2;
    replaced.tags.push('later');
    const path = `/collections/${COLLECTION}/objects`;
    expect((await send(mock, { path: `${path}/obj_copycopycopycopycopy` })).json.content).toEqual({
      tags: ['first'],
      nested: { n: 1 },
    });
    expect((await send(mock, { path: `${path}/${OBJECT}` })).json.content).toEqual({
      tags: ['second'],
    });
    const search = await send(mock, { method: 'POST', path: '/search', body: { query: 'later' } });
    expect(search.json.total).toBe(0);
  });
});
