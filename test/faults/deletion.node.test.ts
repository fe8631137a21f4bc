/**
 * The faults of deleting a collection (src/faults/deletion.ts). Each test sets a faulted mock
 * beside a correct one over the same seed: what the defect changes, and what it leaves alone.
 */
import { describe, expect, it } from 'vitest';
import type { AnswersMock } from '../../src/index.ts';
import { words } from '../../src/core/search/search-index.ts';
import { send, type Sent } from '../support/in-process.ts';
import { KEYS } from '../support/keys.ts';
import { byName, mocks, objectsOf } from './mocks.ts';

describe('withFault', () => {
  it('delete-not-cascading: objects of a deleted collection stay gettable and searchable', async () => {
    const { plain, faulty } = await mocks('delete-not-cascading');
    const target = byName('Onboarding guide');
    const object = objectsOf(target.id)[0]!;
    const word = words(String(object.content.title))[0]!;
    const objectPath = `/collections/${target.id}/objects/${object.id}`;
    const search: Sent = { method: 'POST', path: '/search', body: { query: word, limit: 100 } };

    const run = async (mock: AnswersMock) => {
      const before = await send(mock, search);
      expect(before.json.data.map((hit: any) => hit.object.id)).toContain(object.id);
      expect(
        (await send(mock, { method: 'DELETE', path: `/collections/${target.id}` })).status,
      ).toBe(204);
      expect((await send(mock, { path: `/collections/${target.id}` })).status).toBe(404);
      const got = await send(mock, { path: objectPath });
      const after = await send(mock, search);
      return {
        getStatus: got.status,
        got: got.json,
        found: after.json.data.some((hit: any) => hit.object.id === object.id),
        total: after.json.total - before.json.total,
      };
    };
    const correct = await run(plain);
    expect(correct).toMatchObject({ getStatus: 404, found: false });
    expect(correct.got.code).toBe('collection_not_found');
    expect(correct.total).toBeLessThan(0);
    const wrong = await run(faulty);
    expect(wrong).toMatchObject({ getStatus: 200, found: true, total: 0 });
    expect(wrong.got).toMatchObject({ id: object.id, collection_id: target.id, version: 1 });
  });

  it('soft-delete: a deleted collection leaves the list but is still gettable by id', async () => {
    const { plain, faulty } = await mocks('soft-delete');
    const target = byName('Glossary');
    const object = objectsOf(target.id)[0]!;
    const run = async (mock: AnswersMock) => {
      const before = await send(mock, { path: `/collections/${target.id}` });
      expect(
        (await send(mock, { method: 'DELETE', path: `/collections/${target.id}` })).status,
      ).toBe(204);
      const listed = (await send(mock, { path: '/collections' })).json.data.map((c: any) => c.id);
      expect(listed).not.toContain(target.id);
      const got = await send(mock, { path: `/collections/${target.id}` });
      const gotObject = await send(mock, {
        path: `/collections/${target.id}/objects/${object.id}`,
      });
      return {
        before: before.json,
        status: got.status,
        got: got.json,
        objectStatus: gotObject.status,
      };
    };
    const correct = await run(plain);
    expect([correct.status, correct.objectStatus]).toEqual([404, 404]);
    const wrong = await run(faulty);
    expect([wrong.status, wrong.objectStatus]).toEqual([200, 200]);
    expect(wrong.got).toEqual(wrong.before);
    // Another account still cannot see it.
    expect(
      (await send(faulty, { path: `/collections/${target.id}`, key: KEYS.globex })).status,
    ).toBe(404);
  });

  it('delete-twice-succeeds: a second delete of a collection answers 204', async () => {
    const { plain, faulty } = await mocks('delete-twice-succeeds');
    const target: Sent = { method: 'DELETE', path: `/collections/${byName('Glossary').id}` };
    const twice = async (mock: AnswersMock) => [
      (await send(mock, target)).status,
      (await send(mock, target)).status,
      (await send(mock, { path: target.path })).status,
    ];
    expect(await twice(plain)).toEqual([204, 404, 404]);
    expect(await twice(faulty)).toEqual([204, 204, 404]);
    const never: Sent = { method: 'DELETE', path: '/collections/col_00000000000000000000' };
    expect((await send(faulty, never)).status).toBe(404);
  });
});
