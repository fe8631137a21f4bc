/**
 * Bounded storage (issue "Safe on a developer's machine", part 3): creates used to be accepted
 * until V8 ran out of memory and the process died with everything in it. Writes past the object
 * or byte limit now get 507 `insufficient_storage`, write nothing, and the mock keeps serving;
 * deleting data makes room again.
 */
import { describe, expect, it } from 'vitest';
import { assemble } from '../../../src/assemble.ts';
import { emptyState } from '../../../src/index.ts';
import { validateResponse } from '../../../src/openapi/response-validation.ts';
import { send } from '../../support/in-process.ts';

async function withCollection(options: { maxObjects?: number; maxStoredBytes?: number }) {
  const { mock, state } = await assemble({ initialState: emptyState(), ...options });
  const created = await send(mock, { method: 'POST', path: '/collections', body: { name: 'c' } });
  expect(created.status).toBe(201);
  return { mock, state, id: created.json.id as string };
}

describe('storage limits', () => {
  it('answers 507 past the object limit, writes nothing, and has room after a delete', async () => {
    const { mock, id } = await withCollection({ maxObjects: 3 });
    const path = `/collections/${id}/objects`;
    const made = [];
    for (let i = 0; i < 3; i++)
      made.push(await send(mock, { method: 'POST', path, body: { content: { i } } }));
    expect(made.map((r) => r.status)).toEqual([201, 201, 201]);
    const refused = await send(mock, { method: 'POST', path, body: { content: { i: 3 } } });
    expect(refused.status).toBe(507);
    expect(refused.json).toMatchObject({ code: 'insufficient_storage', status: 507 });
    expect(refused.json.detail).toMatch(/limit of 3 objects.*--max-objects/);
    expect(mock.controls.export().objects).toHaveLength(3);
    // The 507 is a documented answer of the operation, with its problem body.
    expect(
      validateResponse('createObject', {
        status: refused.status,
        headers: new Headers(refused.headers),
        body: refused.body!,
      }),
    ).toEqual([]);
    await send(mock, { method: 'DELETE', path: `${path}/${made[0]!.json.id}` });
    expect((await send(mock, { method: 'POST', path, body: { content: { i: 4 } } })).status).toBe(
      201,
    );
  });

  it('answers 507 when a replace would grow the stored JSON past the byte limit', async () => {
    const { mock, id } = await withCollection({ maxStoredBytes: 200 });
    const path = `/collections/${id}/objects`;
    const small = await send(mock, { method: 'POST', path, body: { content: { t: 'x' } } });
    expect(small.status).toBe(201);
    const big = { t: 'y'.repeat(300) };
    const grown = await send(mock, {
      method: 'PUT',
      path: `${path}/${small.json.id}`,
      body: { content: big },
    });
    expect(grown.status).toBe(507);
    expect(mock.controls.export().objects[0]!.content).toEqual({ t: 'x' });
    const created = await send(mock, { method: 'POST', path, body: { content: big } });
    expect(created.status).toBe(507);
    // A write that shrinks the data is always let through.
    const shrunk = await send(mock, {
      method: 'PUT',
      path: `${path}/${small.json.id}`,
      body: { content: {} },
    });
    expect(shrunk.status).toBe(200);
  });

  it('counts a cascade: deleting a collection gives its objects and bytes back', async () => {
    const { mock, state, id } = await withCollection({ maxObjects: 2 });
    const path = `/collections/${id}/objects`;
    await send(mock, { method: 'POST', path, body: { content: {} } });
    await send(mock, { method: 'POST', path, body: { content: {} } });
    expect(state.store.objectTotal).toBe(2);
    await send(mock, { method: 'DELETE', path: `/collections/${id}` });
    expect(state.store.objectTotal).toBe(0);
    expect(state.store.storedBytes).toBe(0);
  });
});
