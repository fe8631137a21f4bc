/**
 * The msw handlers' Host check (issue 34, item 5): the host of a request's URL is its `Host`
 * (what `@mswjs/http-middleware` builds it from when the handlers serve other pages). Reproduced
 * before the fix: with `baseUrl: '*'` a request to `http://attacker.example/__mock/...` exported
 * every key and reset the data, and there was no `allowedHosts` to narrow the names.
 */
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createHandlers, createMock } from '../../../src/index.ts';
import { API, FULL } from './servers.ts';

const MARK = '2031-01-01T00:00:00.000Z';
const anyOrigin = await createMock();
const named = await createMock();
const server = setupServer(
  ...createHandlers(named, { baseUrl: 'http://named.test', allowedHosts: ['mock.test'] }),
  // Listed last: the handlers above claim their own origins first.
  ...createHandlers(anyOrigin, { baseUrl: '*' }),
);
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(async () => {
  await Promise.all([anyOrigin, named].map((m) => m.controls.reset()));
});
afterAll(() => server.close());

const json = { 'content-type': 'application/json' };
const markClock = (origin: string) =>
  fetch(`${origin}/__mock/clock`, { method: 'POST', headers: json, body: `{"now":"${MARK}"}` });

describe("createHandlers with baseUrl: '*'", () => {
  it('refuses the control API on a name not given by name with 403', async () => {
    const exported = await fetch('http://attacker.example/__mock/state');
    expect(exported.status).toBe(403);
    const text = await exported.text();
    expect(JSON.parse(text)).toMatchObject({ code: 'forbidden_host' });
    expect(text).not.toContain('answers_test_');
    expect((await markClock('http://localhost')).status).toBe(200);
    const reset = await fetch('http://attacker.example/__mock/reset', {
      method: 'POST',
      headers: { ...json, origin: 'http://attacker.example' },
    });
    expect(reset.status).toBe(403);
    expect(anyOrigin.controls.now()).toBe(MARK);
  });

  it('answers the API on any name, and the control API on a loopback one', async () => {
    const api = await fetch(`http://attacker.example${API}/collections`, {
      headers: { authorization: `Bearer ${FULL}` },
    });
    expect(api.status).toBe(200);
    expect((await fetch('http://localhost:5173/__mock/clock')).status).toBe(200);
  });
});

describe('createHandlers with allowedHosts', () => {
  it('answers the hosts of its baseUrl', async () => {
    expect((await markClock('http://named.test')).status).toBe(200);
    expect(named.controls.now()).toBe(MARK);
  });
});

describe("createHandlers with baseUrl: '*' and allowedHosts", () => {
  const narrowed = createHandlers(anyOrigin, { baseUrl: '*', allowedHosts: ['mock.test'] });

  it('answers the names listed, on the API and the control API', async () => {
    server.use(...narrowed);
    expect((await markClock('http://mock.test')).status).toBe(200);
    const api = await fetch(`http://mock.test${API}/collections`, {
      headers: { authorization: `Bearer ${FULL}` },
    });
    expect(api.status).toBe(200);
  });

  it('refuses the API on any other name with 403', async () => {
    server.use(...narrowed);
    const api = await fetch(`http://attacker.example${API}/collections`, {
      headers: { authorization: `Bearer ${FULL}` },
    });
    expect(api.status).toBe(403);
    expect(await api.json()).toMatchObject({ code: 'forbidden_host' });
  });
});
