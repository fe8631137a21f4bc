/**
 * The bad-input catalogue (issue "Hardening", part 1): every case of catalogue-cases.ts against
 * the real HTTP server on an ephemeral port, through fetch or, for what fetch cannot send, raw
 * HTTP over node:net. Every error answer must be the documented problem JSON and nothing else.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMock, type AnswersMock } from '../../src/index.ts';
import { startServer, type RunningServer } from '../../src/node/server.ts';
import {
  API,
  CASES,
  HANDWRITTEN,
  KEYS,
  type CaseRequest,
  type CatalogueCase,
} from './catalogue-cases.ts';
import { expectNoInternals } from './catalogue-checks.ts';
import { rawRequest } from './raw-http.ts';

// @note Taken before anything runs, to prove that no request reached a prototype.
const PROTOTYPE_KEYS = Object.getOwnPropertyNames(Object.prototype).sort();

const NOW = '2026-11-22T00:00:00.000Z';
const PROBLEM_FIELDS = ['type', 'title', 'status', 'code', 'detail', 'errors'];

let mock: AnswersMock;
let running: RunningServer;
/** Ids and cursors the cases' `{{NAME}}` placeholders stand for. */
const context: Record<string, string> = {};
let tried = 0;

/** A response, whichever way it was sent. */
interface Answer {
  status: number;
  headers: Record<string, string>;
  text: string;
}

function fill<T extends string | Uint8Array | undefined>(value: T): T {
  if (typeof value !== 'string') return value;
  return value.replace(/\{\{([A-Z0-9_]+)\}\}/g, (_, name: string) => {
    const filled = context[name];
    if (filled === undefined) throw new Error(`the catalogue context has no ${name}`);
    return filled;
  }) as T;
}

async function perform(request: CaseRequest, timeoutMs = 10_000): Promise<Answer> {
  const headers = (request.headers ?? []).map(
    ([name, value]) => [name, fill(value)] as [string, string | Uint8Array],
  );
  const path = fill(request.path);
  const body = fill(request.body);
  if (request.via === 'raw') {
    const response = await rawRequest(
      running.url,
      { ...request, target: path, headers, body },
      { timeoutMs },
    );
    return { status: response.status, headers: response.headers, text: response.text };
  }
  if (typeof path !== 'string' || headers.some(([, value]) => typeof value !== 'string')) {
    throw new Error('fetch sends only string targets and header values: mark the case raw');
  }
  const response = await fetch(`${running.url}${path}`, {
    method: request.method,
    headers: headers as Array<[string, string]>,
    body: body as BodyInit | undefined,
    redirect: 'manual',
  });
  return {
    status: response.status,
    headers: Object.fromEntries(response.headers),
    text: await response.text(),
  };
}

const mediaTypeOf = (answer: Answer) =>
  answer.headers['content-type']?.split(';')[0]?.trim().toLowerCase() ?? null;

function check(item: CatalogueCase, answer: Answer): void {
  const { expect: expected, request } = item;
  const what = item.name;
  expect(answer.status, `${what}: status (body ${answer.text.slice(0, 300)})`).toBe(
    expected.status,
  );
  expect(mediaTypeOf(answer), `${what}: media type`).toBe(expected.contentType);
  expectNoInternals(answer.text, what);

  if (expected.byNode) {
    // Node's parser answered (or dropped the connection) before the mock saw the request.
    expect(answer.text, `${what}: Node's bare answer has no body`).toBe('');
    return;
  }
  if (expected.success) {
    expect(answer.status, `${what}: a success case expects a 2xx`).toBeLessThan(300);
    expect(expected.code).toBeNull();
    if (expected.contentType === 'application/json') {
      const body = JSON.parse(answer.text) as { data?: Array<{ id: string }> };
      if (expected.firstId)
        expect(body.data?.[0]?.id, `${what}: first item`).toBe(fill(expected.firstId));
    }
    return;
  }

  expect(expected.code, `${what}: an error case names its code`).not.toBeNull();
  if (request.method === 'HEAD') {
    expect(answer.text, `${what}: a HEAD answer has no body`).toBe('');
  } else {
    const body = JSON.parse(answer.text) as Record<string, unknown>;
    expect(body, `${what}: problem body`).toMatchObject({
      type: `urn:answers:problem:${expected.code}`,
      status: answer.status,
      code: expected.code,
    });
    expect(body.title, `${what}: title`).toMatch(/\S/);
    expect(body.detail, `${what}: detail`).toMatch(/\S/);
    expect(Object.keys(body).filter((key) => !PROBLEM_FIELDS.includes(key))).toEqual([]);
  }
  if (answer.status === 401) {
    expect(answer.headers['www-authenticate'], `${what}: challenge`).toMatch(
      /^Bearer realm="answers"/,
    );
  }
  if (expected.challenge) {
    expect(answer.headers['www-authenticate'], `${what}: challenge`).toBe(expected.challenge);
  }
  if (expected.allow) {
    const allow = (answer.headers.allow ?? '').split(/\s*,\s*/).filter(Boolean);
    expect(allow.sort(), `${what}: Allow`).toEqual([...expected.allow].sort());
  }
}

// ---------------------------------------------------------------------------------------------
// Setting up the ids and cursors the cases refer to
// ---------------------------------------------------------------------------------------------

async function api(
  method: string,
  path: string,
  options: { key?: string; body?: unknown } = {},
): Promise<any> {
  const response = await fetch(`${running.url}${API}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${options.key ?? KEYS.full}`,
      ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const text = await response.text();
  if (response.status >= 300) throw new Error(`${method} ${path}: ${response.status} ${text}`);
  return text ? JSON.parse(text) : undefined;
}

async function setUp(): Promise<void> {
  const acme = (await api('GET', '/collections?limit=100')).data;
  context.ACME_COL = acme[0].id;
  context.ACME_COL2 = acme[1].id;
  context.ACME_OBJ = (await api('GET', `/collections/${acme[0].id}/objects?limit=1`)).data[0].id;
  context.ACME_OBJ2 = (await api('GET', `/collections/${acme[1].id}/objects?limit=1`)).data[0].id;
  const globex = await api('GET', '/collections?limit=1', { key: KEYS.globex });
  context.GLOBEX_COL = globex.data[0].id;
  context.CUR_GLOBEX = globex.next_cursor;
  context.GLOBEX_OBJ = (
    await api('GET', `/collections/${globex.data[0].id}/objects?limit=1`, { key: KEYS.globex })
  ).data[0].id;

  const ascending = (await api('GET', '/collections?limit=1')).next_cursor as string;
  context.CUR_ACME_ASC = ascending;
  context.CUR_ACME_DESC = (await api('GET', '/collections?limit=1&order=desc')).next_cursor;
  context.CUR_OBJECTS = (
    await api('GET', `/collections/${acme[0].id}/objects?limit=1`)
  ).next_cursor;
  context.CUR_SEARCH = (
    await api('POST', '/search', { body: { query: 'en', limit: 1 } })
  ).next_cursor;
  const flipped = ascending[2] === 'A' ? 'B' : 'A';
  context.CUR_TAMPERED = `${ascending.slice(0, 2)}${flipped}${ascending.slice(3)}`;
  context.CUR_UNSEALED = ascending.slice(0, ascending.lastIndexOf('.'));

  // A collection of 4 objects, with cursors pointing at objects deleted afterwards.
  const stale = await api('POST', '/collections', { body: { name: 'catalogue stale objects' } });
  context.STALE_COL = stale.id;
  const objects: string[] = [];
  for (let i = 1; i <= 4; i++) {
    objects.push(
      (await api('POST', `/collections/${stale.id}/objects`, { body: { content: { i } } })).id,
    );
  }
  const [o1, o2, o3, o4] = objects as [string, string, string, string];
  context.CUR_STALE_ASC = (
    await api('GET', `/collections/${stale.id}/objects?limit=2`)
  ).next_cursor;
  context.CUR_STALE_DESC = (
    await api('GET', `/collections/${stale.id}/objects?limit=2&order=desc`)
  ).next_cursor;
  await api('DELETE', `/collections/${stale.id}/objects/${o2}`);
  await api('DELETE', `/collections/${stale.id}/objects/${o3}`);
  context.STALE_ASC_NEXT = o4;
  context.STALE_DESC_NEXT = o1;

  // A collection-list cursor pointing at a collection deleted afterwards.
  const first = await api('POST', '/collections', { body: { name: 'catalogue stale 1' } });
  const second = await api('POST', '/collections', { body: { name: 'catalogue stale 2' } });
  const all = (await api('GET', '/collections?limit=100')).data as Array<{ id: string }>;
  const at = all.findIndex((c) => c.id === first.id) + 1;
  context.CUR_STALE_COLL = (await api('GET', `/collections?limit=${at}`)).next_cursor;
  await api('DELETE', `/collections/${first.id}`);
  context.DELETED_COL = first.id;
  context.STALE_COLL_NEXT = second.id;

  for (const [name, value] of Object.entries(context)) {
    if (typeof value !== 'string' || value === '') throw new Error(`set-up left ${name} empty`);
  }
}

beforeAll(async () => {
  mock = await createMock({ now: NOW });
  running = await startServer({ mock, port: 0, quiet: true });
  await setUp();
});

afterAll(async () => {
  await running?.close();
  console.log(`hardening catalogue: ${tried} cases`);
});

describe('bad-input catalogue over real HTTP', () => {
  it('has at least 80 hand-written cases, all names unique', () => {
    expect(HANDWRITTEN).toBeGreaterThanOrEqual(80);
    expect(new Set(CASES.map((c) => c.name)).size).toBe(CASES.length);
  });

  for (const item of CASES) {
    it(item.name, { timeout: 30_000 }, async () => {
      tried++;
      const answer = await perform(item.request, item.request.streamBytes ? 25_000 : 10_000);
      check(item, answer);
    });
  }

  it("answers another account's ids exactly like unknown ids (no existence oracle)", async () => {
    const unknownCollection = 'col_aaaaaaaaaaaaaaaaaaaa';
    const pairs: Array<[string, string]> = [
      [`${API}/collections/{{GLOBEX_COL}}`, `${API}/collections/${unknownCollection}`],
      [
        `${API}/collections/{{GLOBEX_COL}}/objects`,
        `${API}/collections/${unknownCollection}/objects`,
      ],
      [
        `${API}/collections/{{ACME_COL}}/objects/{{GLOBEX_OBJ}}`,
        `${API}/collections/{{ACME_COL}}/objects/obj_aaaaaaaaaaaaaaaaaaaa`,
      ],
    ];
    for (const [foreign, unknown] of pairs) {
      const a = await perform({
        method: 'GET',
        path: foreign,
        headers: [['Authorization', `Bearer ${KEYS.full}`]],
      });
      const b = await perform({
        method: 'GET',
        path: unknown,
        headers: [['Authorization', `Bearer ${KEYS.full}`]],
      });
      const normalise = (answer: Answer) => ({
        status: answer.status,
        headers: { ...answer.headers, date: undefined, 'content-length': undefined },
        body: answer.text.replace(/(col|obj)_[a-z0-9]{20}/g, '<id>'),
      });
      expect(normalise(a)).toEqual(normalise(b));
    }
  });

  it('leaves every prototype untouched and the mock whole after the run', async () => {
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(({} as Record<string, unknown>).isAdmin).toBeUndefined();
    expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(PROTOTYPE_KEYS);
    // The patched "__proto__" member is data of the object, not its prototype.
    const object = await api('GET', `/collections/${context.ACME_COL}/objects/${context.ACME_OBJ}`);
    expect(Object.hasOwn(object.content, '__proto__')).toBe(true);
    expect(object.content.__proto__).toEqual({ polluted: true });
    // The state still exports (a refused body left nothing half-stored behind) and serves.
    const state = mock.controls.export();
    const collections = new Set(state.collections.map((c) => c.id));
    expect(state.objects.filter((o) => !collections.has(o.collection_id))).toEqual([]);
    expect((await fetch(`${running.url}/__mock/state`)).status).toBe(200);
    expect((await api('GET', '/collections?limit=1')).data).toHaveLength(1);
  });
});
