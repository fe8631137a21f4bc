import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { setupAnswersWorker } from '../../src/browser/index.ts';
import { validateResponse } from '../../src/openapi/response-validation.ts';

// @note The page's own origin: the worker intercepts fetch to it like any other API origin.
const BASE = `${location.origin}/api/answers/v1`;
const { mock, worker } = await setupAnswersWorker({
  now: '2026-11-22T12:00:00.000Z',
  baseUrl: location.origin,
});

beforeAll(async () => {
  await worker.start({
    quiet: true,
    onUnhandledRequest: 'bypass',
    serviceWorker: { url: '/mockServiceWorker.js' },
  });
});
afterEach(() => mock.controls.reset());
afterAll(() => worker.stop());

async function call(
  operationId: string,
  method: string,
  path: string,
  key: string | null,
  body?: unknown,
) {
  const headers: Record<string, string> = {};
  if (key) headers.authorization = `Bearer ${key}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`${BASE}${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  expect(
    validateResponse(operationId, {
      status: response.status,
      headers: response.headers,
      body: text,
    }),
  ).toEqual([]);
  return {
    status: response.status,
    headers: response.headers,
    json: text ? JSON.parse(text) : undefined,
  };
}

describe('the ./browser entry in Chromium', () => {
  it('answers 401 with a challenge without a key, and 200 with one', async () => {
    const refused = await call('listCollections', 'GET', '/collections', null);
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toBe('Bearer realm="answers"');
    const listed = await call(
      'listCollections',
      'GET',
      '/collections',
      'answers_test_readonly_acme',
    );
    expect(listed.status).toBe(200);
    expect(navigator.userAgent).toContain('Chrome');
  });

  it('walks every page of the collections list without repeats', async () => {
    const ids: string[] = [];
    let cursor: string | null = null;
    do {
      const query: string = cursor ? `&cursor=${encodeURIComponent(cursor)}` : '';
      const page = await call(
        'listCollections',
        'GET',
        `/collections?limit=2${query}`,
        'answers_test_full_acme',
      );
      ids.push(...page.json.data.map((c: { id: string }) => c.id));
      cursor = page.json.next_cursor;
    } while (cursor);
    expect(ids).toHaveLength(6);
    expect(new Set(ids).size).toBe(6);
  });

  it('deletes a collection with its objects, and a search no longer finds them', async () => {
    const created = await call(
      'createCollection',
      'POST',
      '/collections',
      'answers_test_full_acme',
      { name: 'Browser' },
    );
    const id = created.json.id;
    await call('createObject', 'POST', `/collections/${id}/objects`, 'answers_test_full_acme', {
      content: { text: 'ocelot' },
    });
    expect(
      (
        await call('searchObjects', 'POST', '/search', 'answers_test_full_acme', {
          query: 'ocelot',
        })
      ).json.total,
    ).toBe(1);
    expect(
      (await call('deleteCollection', 'DELETE', `/collections/${id}`, 'answers_test_full_acme'))
        .status,
    ).toBe(204);
    expect(
      (await call('getCollection', 'GET', `/collections/${id}`, 'answers_test_full_acme')).status,
    ).toBe(404);
    expect(
      (
        await call('searchObjects', 'POST', '/search', 'answers_test_full_acme', {
          query: 'ocelot',
        })
      ).json.total,
    ).toBe(0);
  });
});

describe('the control API through the worker', () => {
  it('resets, exports and loads the state over fetch, as on the Node server', async () => {
    const created = await call(
      'createCollection',
      'POST',
      '/collections',
      'answers_test_full_acme',
      {
        name: 'Before reset',
      },
    );
    expect(created.status).toBe(201);
    const reset = await fetch(`${location.origin}/__mock/reset`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
    });
    expect(reset.status).toBe(204);
    const gone = await call(
      'getCollection',
      'GET',
      `/collections/${created.json.id}`,
      'answers_test_full_acme',
    );
    expect(gone.status).toBe(404);

    const exported = await (await fetch(`${location.origin}/__mock/state`)).json();
    const emptied = { ...exported, collections: [], objects: [] };
    const put = await fetch(`${location.origin}/__mock/state`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(emptied),
    });
    expect(put.status).toBe(204);
    const listed = await call('listCollections', 'GET', '/collections', 'answers_test_full_acme');
    expect(listed.json).toEqual({ data: [], has_more: false, next_cursor: null });
  });

  it('keeps each request the page sent in the journal, and serves it at /__mock/requests', async () => {
    await call('listCollections', 'GET', '/collections', 'answers_test_readonly_acme');
    await call('getCollection', 'GET', '/collections/col_missing', 'answers_test_full_acme');
    const kept = mock.controls.requests();
    expect(kept.map((e) => [e.seq, e.operation, e.key, e.status, e.code])).toEqual([
      [1, 'listCollections', 'readonly', 200, undefined],
      [2, 'getCollection', 'full', 404, 'collection_not_found'],
    ]);
    const served = await (await fetch(`${location.origin}/__mock/requests?status=404`)).json();
    expect(served.data).toEqual([kept[1]]);
    expect(JSON.stringify(served)).not.toContain('answers_test_');
  });
});
