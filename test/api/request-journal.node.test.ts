/**
 * The request journal (issue 50): every API request a mock answered, in order, with its
 * operation, the key's role and a masked key (never the key), the status, the problem code, the
 * time it took and what a control forced; bounded; cleared by reset; read by
 * `mock.controls.requests()` and `GET /__mock/requests` (here through the msw handlers).
 */
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createHandlers, createMock, DEV_KEYS, type MockRequest } from '../../src/index.ts';
import { KEYS } from '../support/keys.ts';

const ORIGIN = 'http://journal.test';
const mock = await createMock({ now: '2026-11-22T12:00:00.000Z' });
const server = setupServer(...createHandlers(mock, { baseUrl: ORIGIN }));
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(async () => {
  await mock.controls.reset();
  mock.controls.clearFailures();
});
afterAll(() => server.close());

const get = (path: string, key?: string, headers: Record<string, string> = {}) =>
  fetch(`${ORIGIN}${path}`, {
    headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), ...headers },
  });

/** A request as an adapter gives one to `mock.handle`. */
function request(path: string, key: string | undefined, body?: unknown): MockRequest {
  const headers = new Map<string, string>([
    ...(key ? ([['authorization', `Bearer ${key}`]] as const) : []),
    ...(body !== undefined ? ([['content-type', 'application/json']] as const) : []),
  ]);
  return {
    method: body === undefined ? 'GET' : 'POST',
    path,
    query: new URLSearchParams(),
    headers: { get: (name) => headers.get(name) ?? null },
    body: body === undefined ? undefined : new TextEncoder().encode(JSON.stringify(body)),
  };
}

describe('the request journal', () => {
  it('keeps each API request in order: operation, key role, masked key, status, problem code', async () => {
    await get('/v1/collections', KEYS.full);
    await get('/v1/collections', KEYS.readonly);
    await get('/v1/collections');
    await get('/v1/collections', 'answers_test_not_a_key_at_all');
    await get('/v1/collections/col_missing', KEYS.globex);
    const entries = mock.controls.requests();
    expect(
      entries.map((e) => [e.seq, e.method, e.path, e.operation, e.key, e.status, e.code]),
    ).toEqual([
      [1, 'GET', '/v1/collections', 'listCollections', 'full', 200, undefined],
      [2, 'GET', '/v1/collections', 'listCollections', 'readonly', 200, undefined],
      [3, 'GET', '/v1/collections', 'listCollections', 'none', 401, 'missing_credentials'],
      [4, 'GET', '/v1/collections', 'listCollections', 'unknown', 401, 'invalid_api_key'],
      [
        5,
        'GET',
        '/v1/collections/col_missing',
        'getCollection',
        'otherAccount',
        404,
        'collection_not_found',
      ],
    ]);
    expect(entries[0]!.maskedKey).toBe('…acme');
    expect(entries[2]!.maskedKey).toBeUndefined();
    for (const entry of entries) {
      expect(entry.ms).toBeGreaterThanOrEqual(0);
      expect(Date.parse(entry.at)).not.toBeNaN();
    }
    // Never a key, of any role.
    const text = JSON.stringify(entries);
    for (const { key } of DEV_KEYS) expect(text).not.toContain(key);
    expect(text).not.toContain('answers_test_not_a_key_at_all');
  });

  it('says what a control forced: a queued failure, a Prefer status, the latency', async () => {
    mock.controls.failNext('listCollections', 503);
    await get('/v1/collections', KEYS.full);
    await get('/v1/collections', KEYS.full, { prefer: 'code=429' });
    mock.controls.setLatency(20);
    await get('/v1/collections', KEYS.full);
    const [failed, preferred, slow] = mock.controls.requests();
    expect(failed).toMatchObject({ status: 503, forced: { how: expect.any(String) } });
    expect(preferred).toMatchObject({
      status: 429,
      forced: { how: expect.stringContaining('429') },
    });
    expect(slow).toMatchObject({ status: 200, forced: { latencyMs: 20 } });
    expect(slow!.ms).toBeGreaterThanOrEqual(19);
  });

  it('GET /__mock/requests filters by operation, status and since; a bad filter is a 400', async () => {
    await get('/v1/collections', KEYS.full);
    await get('/v1/collections');
    await get('/v1/collections/col_missing', KEYS.full);
    const read = async (query: string) =>
      (
        (await (await get(`/__mock/requests${query}`)).json()) as { data: Array<{ seq: number }> }
      ).data.map((entry) => entry.seq);
    expect(await read('')).toEqual([1, 2, 3]);
    expect(await read('?operation=listCollections')).toEqual([1, 2]);
    expect(await read('?status=401')).toEqual([2]);
    expect(await read('?since=1')).toEqual([2, 3]);
    // Reading the journal is no API request: it is not in it.
    expect(mock.controls.requests()).toHaveLength(3);
    for (const bad of ['?status=abc', '?status=99', '?operation=dropTables', '?since=-1']) {
      const answer = await get(`/__mock/requests${bad}`);
      expect(answer.status, bad).toBe(400);
      expect(((await answer.json()) as { code: string }).code).toBe('invalid_control_request');
    }
  });

  it('is cleared by reset, and starts again at 1', async () => {
    await get('/v1/collections', KEYS.full);
    await mock.controls.reset();
    expect(mock.controls.requests()).toEqual([]);
    await get('/v1/collections', KEYS.full);
    expect(mock.controls.requests().map((e) => e.seq)).toEqual([1]);
  });

  it('keeps 10,000 requests in order by default, with no key value', async () => {
    const own = await createMock();
    const keys = [KEYS.full, KEYS.readonly, KEYS.globex, KEYS.inactive, undefined];
    for (let i = 0; i < 10_000; i++) await own.handle(request('/v1/collections', keys[i % 5]));
    const entries = own.controls.requests();
    expect(entries).toHaveLength(10_000);
    expect(entries.every((entry, i) => entry.seq === i + 1)).toBe(true);
    const text = JSON.stringify(entries);
    for (const { key } of DEV_KEYS) expect(text).not.toContain(key);
  });

  it('keeps the last journalSize entries, and none with 0', async () => {
    const small = await createMock({ journalSize: 3 });
    for (let i = 0; i < 5; i++) await small.handle(request('/v1/collections', KEYS.full));
    expect(small.controls.requests().map((e) => e.seq)).toEqual([3, 4, 5]);
    const none = await createMock({ journalSize: 0 });
    await none.handle(request('/v1/collections', KEYS.full));
    expect(none.controls.requests()).toEqual([]);
    await expect(createMock({ journalSize: -1 })).rejects.toThrow(/journalSize/);
  });

  it('keeps bodies only when asked, cut short, every key by its role', async () => {
    const plain = await createMock();
    const bodies = await createMock({ journalBodies: true });
    const echo = { name: `notes for ${KEYS.full}`, metadata: { long: 'x'.repeat(10_000) } };
    for (const each of [plain, bodies])
      await each.handle(request('/v1/collections', KEYS.full, echo));
    expect(plain.controls.requests()[0]).not.toHaveProperty('requestBody');
    const [kept] = bodies.controls.requests();
    expect(kept!.requestBody).toContain('notes for <full key>');
    expect(kept!.requestBody!.length).toBeLessThanOrEqual(4_097);
    expect(kept!.responseBody).toContain('<full key>');
    expect(JSON.stringify(kept)).not.toContain(KEYS.full);
  });
});
