/**
 * The msw handlers behave as msw users expect: they claim only the configured base URLs, one
 * handler per operation reachable by name, `server.use` overrides and `server.resetHandlers`
 * restores, a removed operation falls through to `onUnhandledRequest`, and typed handlers from
 * openapi-msw for the same document compose with them.
 */
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { createOpenApiHttp } from 'openapi-msw';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createHandlers, createMock, type paths } from '../../src/index.ts';
import { OPERATIONS, type OperationId } from '../../src/openapi/operations.ts';
import { KEYS } from '../support/keys.ts';

const ORIGIN = 'https://answers.example.com';
const API = `${ORIGIN}/api/answers/v1`;
const auth = { authorization: `Bearer ${KEYS.full}` };

const mock = await createMock({ now: '2026-11-22T12:00:00.000Z' });
const handlers = createHandlers(mock, { baseUrl: ORIGIN });
const unhandled: string[] = [];
const server = setupServer(...handlers);
beforeAll(() =>
  server.listen({
    onUnhandledRequest: (request) => {
      unhandled.push(`${request.method} ${request.url}`);
    },
  }),
);
afterEach(async () => {
  server.resetHandlers();
  unhandled.length = 0;
  await mock.controls.reset();
});
afterAll(() => server.close());

/** The request fails at the network level when msw lets it through: nothing listens there. */
const attempt = async (url: string, init?: RequestInit) => {
  try {
    return (await fetch(url, init)).status;
  } catch {
    return 'network error';
  }
};

describe('which requests the handlers claim', () => {
  it('answers the API under the configured base URL, on all three prefixes', async () => {
    for (const prefix of ['/api/answers/v1', '/api/answers', '/v1']) {
      const response = await fetch(`${ORIGIN}${prefix}/collections`, { headers: auth });
      expect(response.status, prefix).toBe(200);
    }
    expect(unhandled).toEqual([]);
  });

  it("leaves another origin's /v1 alone, so msw reports it unhandled", async () => {
    const url = 'https://api.other-vendor.example/v1/customers';
    await attempt(url);
    expect(unhandled).toEqual([`GET ${url}`]);
  });

  it('claims loopback origins by default, and only those', async () => {
    const local = setupServer(...createHandlers(mock));
    server.close();
    local.listen({ onUnhandledRequest: (r) => void unhandled.push(r.url) });
    try {
      const response = await fetch('http://localhost:5173/v1/collections', { headers: auth });
      expect(response.status).toBe(200);
      await attempt(`${ORIGIN}/v1/collections`);
      expect(unhandled).toEqual([`${ORIGIN}/v1/collections`]);
    } finally {
      local.close();
      server.listen({ onUnhandledRequest: (r) => void unhandled.push(`${r.method} ${r.url}`) });
    }
  });

  it('answers an unknown path under a prefix with the API 404, and a wrong method with 405', async () => {
    const missing = await fetch(`${API}/nothing-here`, { headers: auth });
    expect(missing.status).toBe(404);
    expect((await missing.json()).code).toBe('not_found');
    const wrong = await fetch(`${API}/search`, { method: 'GET', headers: auth });
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get('allow')).toBe('POST');
  });
});

describe('one handler per operation', () => {
  it('names a handler for every operation of openapi.yaml', () => {
    const ids = [...OPERATIONS.keys()] as OperationId[];
    expect(ids.length).toBeGreaterThanOrEqual(12);
    for (const id of ids) expect(handlers).toContain(handlers[id]);
    expect(handlers).toContain(handlers.unknownRoute);
    expect(handlers).toContain(handlers.control);
  });

  it('lets server.use override one operation, and resetHandlers restore it', async () => {
    server.use(
      http.get(`${API}/collections`, () =>
        HttpResponse.json({ code: 'internal_error' }, { status: 503 }),
      ),
    );
    expect((await fetch(`${API}/collections`, { headers: auth })).status).toBe(503);
    // Other operations keep answering from the mock.
    const created = await fetch(`${API}/collections`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'still mocked' }),
    });
    expect(created.status).toBe(201);
    server.resetHandlers();
    expect((await fetch(`${API}/collections`, { headers: auth })).status).toBe(200);
  });

  it('lets a test leave one operation out: its requests fall through, unhandled', async () => {
    server.resetHandlers(...handlers.filter((handler) => handler !== handlers.searchObjects));
    const body = JSON.stringify({ query: 'anything' });
    const status = await attempt(`${API}/search`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body,
    });
    expect(status).toBe('network error');
    expect(unhandled).toEqual([`POST ${API}/search`]);
    expect((await fetch(`${API}/collections`, { headers: auth })).status).toBe(200);
  });
});

describe('composing with openapi-msw', () => {
  it('takes a typed handler for the same document in front of the mock', async () => {
    const typed = createOpenApiHttp<paths>({ baseUrl: API });
    server.use(
      typed.get('/collections/{collection_id}', ({ params, response }) =>
        response(200).json({
          id: params.collection_id,
          name: 'From openapi-msw',
          metadata: {},
          object_count: 0,
          created_at: '2026-01-01T00:00:00.000Z',
          updated_at: '2026-01-01T00:00:00.000Z',
        }),
      ),
    );
    const response = await fetch(`${API}/collections/col_aaaaaaaaaaaaaaaaaaaa`, { headers: auth });
    expect(response.status).toBe(200);
    expect((await response.json()).name).toBe('From openapi-msw');
    // The rest of the API is still the mock's.
    expect((await fetch(`${API}/collections`, { headers: auth })).status).toBe(200);
  });
});
