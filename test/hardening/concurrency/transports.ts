/**
 * The two ways the concurrency tests reach a fresh mock on an empty state (`mock.handle`, and the
 * real HTTP server), every answer checked against openapi.yaml, and the helpers the tests share.
 */
import { afterEach, beforeEach, expect } from 'vitest';
import { createMock, type AnswersMock } from '../../../src/index.ts';
import { validateResponse } from '../../../src/openapi/response-validation.ts';
import { startServer } from '../../../src/node/server.ts';
import { emptyState } from '../../../src/seed/empty-state.ts';
import { observe, send, type Observed } from '../fuzz-support.ts';

const ACME = 'answers_test_full_acme';
export const GLOBEX = 'answers_test_full_globex';

interface Transport {
  mock: AnswersMock;
  /** Sends a JSON request under /api/answers/v1 and checks the answer against openapi.yaml. */
  call(
    operationId: string,
    method: string,
    path: string,
    body?: unknown,
    key?: string,
  ): Promise<Observed>;
  close(): Promise<void>;
}

function checked(operationId: string, method: string, path: string, response: Observed) {
  expect(response.status, `${method} ${path}: ${response.text.slice(0, 200)}`).toBeLessThan(500);
  const found = validateResponse(operationId, {
    status: response.status,
    headers: response.headers,
    body: response.text,
  });
  expect(found, `${method} ${path} -> ${response.status} breaks openapi.yaml`).toEqual([]);
  return response;
}

async function viaHandle(): Promise<Transport> {
  const mock = await createMock({ initialState: emptyState, now: '2026-11-22T12:00:00.000Z' });
  return {
    mock,
    call: async (operationId, method, path, body, key = ACME) =>
      checked(operationId, method, path, await send(mock, key, method, path, body)),
    close: async () => {},
  };
}

async function viaHttp(): Promise<Transport> {
  const mock = await createMock({ initialState: emptyState, now: '2026-11-22T12:00:00.000Z' });
  const server = await startServer({ mock, port: 0, quiet: true });
  return {
    mock,
    async call(operationId, method, path, body, key = ACME) {
      const headers: Record<string, string> = { authorization: `Bearer ${key}` };
      if (body !== undefined) headers['content-type'] = 'application/json';
      const response = await fetch(`${server.url}/api/answers/v1${path}`, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await response.text();
      return checked(operationId, method, path, observe(response.status, response.headers, text));
    },
    close: () => server.close(),
  };
}

/** Both transports, for `describe.each`. */
export const TRANSPORTS: Array<[name: string, open: () => Promise<Transport>]> = [
  ['through mock.handle', viaHandle],
  ['over HTTP', viaHttp],
];

/**
 * In a `describe`: opens a fresh transport before each test and closes it after. Returns the
 * transport of the running test and helpers that act on it.
 */
export function onFreshMock(open: () => Promise<Transport>) {
  let t: Transport;
  beforeEach(async () => {
    t = await open();
  });
  afterEach(() => t.close());

  async function createCollection(name: string, key = ACME) {
    const created = await t.call('createCollection', 'POST', '/collections', { name }, key);
    expect(created.status).toBe(201);
    return created.json;
  }

  /** Creates `n` objects one after the other; returns them as the API answered them. */
  async function createObjects(collectionId: string, n: number) {
    const objects: any[] = [];
    for (let i = 0; i < n; i++) {
      const content = { title: `object ${i} race`, tags: ['race', `n${i}`], nested: { i } };
      const created = await t.call('createObject', 'POST', `/collections/${collectionId}/objects`, {
        content,
      });
      expect(created.status).toBe(201);
      objects.push(created.json);
    }
    return objects;
  }

  /** Walks a list concurrently with other tasks; checks every page; returns the ids in order. */
  async function walk(operationId: string, path: string, limit: number, order: 'asc' | 'desc') {
    const items: any[] = [];
    let cursor: string | null = null;
    for (let pages = 0; pages < 500; pages++) {
      const query = new URLSearchParams({ limit: String(limit), order });
      if (cursor) query.set('cursor', cursor);
      const page = await t.call(operationId, 'GET', `${path}?${query}`);
      expect(page.status, page.text).toBe(200);
      expect(page.json.data.length).toBeLessThanOrEqual(limit);
      items.push(...page.json.data);
      cursor = page.json.next_cursor;
      if (!cursor) return items;
    }
    throw new Error(`the walk of ${path} did not end`);
  }

  return { current: () => t, createCollection, createObjects, walk };
}
