import { describe, expect, it } from 'vitest';
import { frozenCopy as copyOf } from '../../src/core/store/record-copy.ts';
import { createMock, emptyState } from '../../src/index.ts';

/** Every object and array in `value`, depth first. */
function containers(value: unknown): object[] {
  if (typeof value !== 'object' || value === null) return [];
  return [value, ...Object.values(value).flatMap(containers)];
}

describe('frozenCopy', () => {
  it.each([
    { given: 'text' },
    { given: 0 },
    { given: null },
    { given: true },
    { given: [] },
    { given: {} },
    { given: { a: 1, b: 'two', c: null, d: false } },
    { given: { list: [1, [2, [3]], { deep: { deeper: ['x'] } }] } },
    { given: [{ a: 1 }, { b: [{ c: 2 }] }] },
    { given: { order: 1, of: 2, keys: 3, kept: 4 } },
  ])('$given: equal, key order kept, no object or array shared', ({ given }) => {
    const copy = copyOf(given);
    expect(copy).toEqual(given);
    expect(JSON.stringify(copy)).toBe(JSON.stringify(given));
    const originals = new Set(containers(given));
    for (const inner of containers(copy)) {
      expect(originals.has(inner)).toBe(false);
      expect(Object.isFrozen(inner)).toBe(true);
    }
  });

  it('keeps a "__proto__" key a plain member', () => {
    const copy = copyOf(JSON.parse('{"a":1,"__proto__":{"polluted":true}}')) as object;
    expect(Object.keys(copy)).toEqual(['a', '__proto__']);
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('copies own keys only, even when Object.prototype has an enumerable one', () => {
    const prototype = Object.prototype as Record<string, unknown>;
    let copy: Record<string, unknown>;
    prototype.inherited = 1;
    try {
      copy = copyOf({ own: 1 }) as Record<string, unknown>;
    } finally {
      delete prototype.inherited;
    }
    expect(Object.keys(copy)).toEqual(['own']);
    expect(Object.hasOwn(copy, 'inherited')).toBe(false);
  });

  it('keeps what is not plain JSON data as it is', () => {
    const date = new Date(0);
    expect(copyOf({ date }).date).toBe(date);
  });
});

describe('the store owns what it is given', () => {
  it('is not changed by later changes to a loaded state or a record given to mock.db', async () => {
    const state = emptyState();
    const at = '2026-03-01T10:00:00.000Z';
    state.collections.push({
      id: 'col_copycopycopycopycopy',
      account_id: 'acme',
      name: 'Copies',
      metadata: { tags: ['a'] },
      created_at: at,
      updated_at: at,
    });
    const loaded = {
      id: 'obj_loadedloadedloadedlo',
      account_id: 'acme',
      collection_id: 'col_copycopycopycopycopy',
      content: { nested: { list: ['loaded'] } },
      created_at: at,
      updated_at: at,
      version: 1,
    };
    state.objects.push(loaded);
    const mock = await createMock({ initialState: state });
    const given = { ...loaded, id: 'obj_givengivengivengiven', content: { list: ['given'] } };
    await mock.db.objects.create(given);

    state.collections[0]!.metadata.tags = ['changed'];
    loaded.content.nested.list.push('changed');
    given.content.list.push('changed');

    const { collections, objects } = mock.controls.export();
    expect(collections[0]!.metadata).toEqual({ tags: ['a'] });
    const contentOf = (id: string) => objects.find((object) => object.id === id)?.content;
    expect(contentOf(loaded.id)).toEqual({ nested: { list: ['loaded'] } });
    expect(contentOf(given.id)).toEqual({ list: ['given'] });
  });
});
