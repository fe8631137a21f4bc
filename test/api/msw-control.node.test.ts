import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createHandlers, createMock } from '../../src/index.ts';
import { KEYS } from '../support/keys.ts';

const ORIGIN = 'http://answers.test';
const mock = await createMock({ now: '2026-11-22T12:00:00.000Z' });
const off = await createMock({ now: '2026-11-22T12:00:00.000Z' });
const server = setupServer(
  ...createHandlers(mock, { baseUrl: ORIGIN }),
  ...createHandlers(off, { baseUrl: 'http://no-control.test', control: false }),
);
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => mock.controls.reset());
afterAll(() => server.close());

const auth = { authorization: `Bearer ${KEYS.full}` };

describe('the control API through the msw handlers', () => {
  it('resets the data with POST /__mock/reset', async () => {
    const created = await fetch(`${ORIGIN}/v1/collections`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Gone after reset' }),
    });
    expect(created.status).toBe(201);
    const { id } = await created.json();
    expect(
      (
        await fetch(`${ORIGIN}/__mock/reset`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
        })
      ).status,
    ).toBe(204);
    expect((await fetch(`${ORIGIN}/v1/collections/${id}`, { headers: auth })).status).toBe(404);
  });

  it('exports and loads the state, the same snapshot as controls.export()', async () => {
    const exported = await (await fetch(`${ORIGIN}/__mock/state`)).json();
    expect(exported).toEqual(mock.controls.export());
    const put = await fetch(`${ORIGIN}/__mock/state`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ...exported, collections: [], objects: [] }),
    });
    expect(put.status).toBe(204);
    expect(mock.controls.export().collections).toEqual([]);
  });

  it('answers control errors as the Node server does (400 problem, 405 with Allow)', async () => {
    const bad = await fetch(`${ORIGIN}/__mock/latency`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: '{"ms":-1}',
    });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({
      code: 'invalid_control_request',
      errors: [{ location: 'body', pointer: '/ms', message: 'must be >= 0' }],
    });
    const wrong = await fetch(`${ORIGIN}/__mock/reset`);
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get('allow')).toBe('POST');
  });

  it('leaves /__mock to other handlers when control is off', async () => {
    // No handler answers it, so msw's onUnhandledRequest: 'error' makes the fetch fail.
    await expect(fetch('http://no-control.test/__mock/reset', { method: 'POST' })).rejects.toThrow(
      /fetch failed|unhandled/i,
    );
    expect((await fetch('http://no-control.test/v1/collections', { headers: auth })).status).toBe(
      200,
    );
  });
});
