import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createMock, type AnswersMock } from '../src/index.ts';
import type { MockRequest } from '../src/core/http.ts';
import { validateResponse } from '../src/openapi/response-validation.ts';
import { words } from '../src/core/model/search-index.ts';
import { FAULT_NAMES, FAULTS, withFault, type FaultName } from '../src/faults/index.ts';
import { defaultState } from '../src/seed/default-state.ts';

const NOW = '2026-11-22T12:00:00.000Z';
const PREFIX = '/api/answers/v1';
const KEYS = {
  full: 'answers_test_full_acme',
  readonly: 'answers_test_readonly_acme',
  globex: 'answers_test_full_globex',
  inactive: 'answers_test_inactive_acme',
} as const;

const acme = defaultState.collections.filter((c) => c.account_id === 'acme');
const byName = (name: string) => acme.find((c) => c.name === name)!;
const objectsOf = (id: string) => defaultState.objects.filter((o) => o.collection_id === id);
const acmeObjectCount = defaultState.objects.filter((o) => o.account_id === 'acme').length;

interface Sent {
  method?: string;
  path: string;
  /** The key sent as `Authorization: Bearer`; null sends none. Default: acme's full key. */
  key?: string | null;
  headers?: Record<string, string>;
  query?: Record<string, string>;
  body?: unknown;
}

function request({ method = 'GET', path, key = KEYS.full, headers, query, body }: Sent) {
  const all = new Headers(headers);
  const request: MockRequest = {
    method,
    path: `${PREFIX}${path}`,
    query: new URLSearchParams(query),
    headers: all,
  };
  if (key !== null) all.set('authorization', `Bearer ${key}`);
  if (body !== undefined) {
    all.set('content-type', 'application/json');
    request.body = new TextEncoder().encode(JSON.stringify(body));
  }
  return request;
}

/** Sends `body` as it is (e.g. malformed JSON), as application/json. */
async function sendRaw(mock: AnswersMock, sent: Sent, body: string) {
  const raw = request({
    ...sent,
    headers: { ...sent.headers, 'content-type': 'application/json' },
  });
  raw.body = new TextEncoder().encode(body);
  const response = await mock.handle(raw);
  return { ...response, json: response.body ? JSON.parse(response.body) : undefined };
}

/** Sends one request and reads the response, JSON body parsed. */
async function send(mock: AnswersMock, sent: Sent) {
  const response = await mock.handle(request(sent));
  const json: any = response.body ? JSON.parse(response.body) : undefined;
  return { ...response, json };
}

/** The violations of openapi.yaml in a response (empty when it conforms). */
async function violations(mock: AnswersMock, operationId: string, sent: Sent) {
  const response = await mock.handle(request(sent));
  return validateResponse(operationId, {
    status: response.status,
    headers: new Headers(response.headers),
    body: response.body ?? '',
  });
}

/** Every item of a list, page by page. */
async function walk(mock: AnswersMock, path: string, limit: number) {
  const items: any[] = [];
  let cursor: string | null = null;
  for (let pages = 0; pages < 100; pages++) {
    const query: Record<string, string> = { limit: String(limit) };
    if (cursor) query.cursor = cursor;
    const page = await send(mock, { path, query });
    expect(page.status).toBe(200);
    items.push(...page.json.data);
    cursor = page.json.next_cursor;
    if (!cursor) return items;
  }
  throw new Error('the walk did not end');
}

/** A correct mock and a faulted one, each over its own fresh state. */
async function mocks(fault: FaultName) {
  return {
    plain: await createMock({ now: NOW }),
    faulty: withFault(await createMock({ now: NOW }), fault),
  };
}

describe('FAULTS', () => {
  it('names the 34 faults, each with a description and clause ids of docs/spec-gaps.md', () => {
    expect(FAULT_NAMES).toHaveLength(34);
    const gaps = readFileSync(new URL('../docs/spec-gaps.md', import.meta.url), 'utf8');
    for (const name of FAULT_NAMES) {
      const { description, clauses } = FAULTS[name];
      expect(description.length, name).toBeGreaterThan(0);
      expect(clauses.length, name).toBeGreaterThan(0);
      for (const id of clauses) expect(gaps, `${name} cites ${id}`).toContain(`| \`${id}\``);
    }
  });

  it('refuses an unknown fault and shares controls and state with the wrapped mock', async () => {
    const mock = await createMock({ now: NOW });
    expect(() => withFault(mock, 'no-such-fault' as FaultName)).toThrow(RangeError);
    const faulty = withFault(mock, 'counts-wrong');
    expect(faulty.controls).toBe(mock.controls);
    expect(faulty.state).toBe(mock.state);
  });
});

describe('withFault', () => {
  it('auth-not-enforced: serves requests without a valid key as acme', async () => {
    const { plain, faulty } = await mocks('auth-not-enforced');
    const bad: Array<[Sent, string]> = [
      [{ path: '/collections', key: null }, 'missing_credentials'],
      [{ path: '/collections', key: 'answers_test_nope' }, 'invalid_api_key'],
      [{ path: '/collections', key: KEYS.inactive }, 'inactive_api_key'],
      [
        { path: '/collections', key: null, headers: { authorization: 'Basic abc' } },
        'malformed_credentials',
      ],
    ];
    for (const [sent, code] of bad) {
      const correct = await send(plain, sent);
      expect(correct.status).toBe(401);
      expect(correct.json.code).toBe(code);
      const served = await send(faulty, sent);
      expect(served.status, code).toBe(200);
      expect(served.json.data.map((c: any) => c.id)).toEqual(acme.map((c) => c.id));
    }
    // Permissions are still checked: only authentication is broken.
    const denied = { method: 'DELETE', path: `/collections/${acme[5]!.id}`, key: KEYS.readonly };
    expect((await send(faulty, denied)).json.code).toBe('insufficient_permission');
  });

  it('forbidden-instead-of-unauthorized: answers 403 where the spec says 401', async () => {
    const { plain, faulty } = await mocks('forbidden-instead-of-unauthorized');
    const cases: Sent[] = [
      { path: '/collections', key: null },
      { method: 'DELETE', path: `/collections/${acme[5]!.id}`, key: KEYS.readonly },
    ];
    for (const sent of cases) {
      const correct = await send(plain, sent);
      const wrong = await send(faulty, sent);
      expect([correct.status, correct.json.status]).toEqual([401, 401]);
      expect([wrong.status, wrong.json.status]).toEqual([403, 403]);
      expect(wrong.json.code).toBe(correct.json.code);
      expect(wrong.headers).toEqual(correct.headers);
    }
    expect((await send(faulty, { path: '/collections' })).status).toBe(200);
  });

  it('header-form-ignored: a key sent only as X-Answers-API-Key gets 401', async () => {
    const { plain, faulty } = await mocks('header-form-ignored');
    const sent: Sent = {
      path: '/collections',
      key: null,
      headers: { 'x-answers-api-key': KEYS.full },
    };
    expect((await send(plain, sent)).status).toBe(200);
    const refused = await send(faulty, sent);
    expect(refused.status).toBe(401);
    expect(refused.json.code).toBe('missing_credentials');
    expect((await send(faulty, { path: '/collections' })).status).toBe(200);
  });

  it('permission-not-enforced: a read-only key can delete', async () => {
    const { plain, faulty } = await mocks('permission-not-enforced');
    const target = byName('Glossary');
    const sent: Sent = { method: 'DELETE', path: `/collections/${target.id}`, key: KEYS.readonly };
    const correct = await send(plain, sent);
    expect(correct.status).toBe(401);
    expect(correct.json.code).toBe('insufficient_permission');
    expect((await send(faulty, sent)).status).toBe(204);
    expect((await send(faulty, { path: `/collections/${target.id}` })).status).toBe(404);
    // Authentication itself still works.
    expect((await send(faulty, { ...sent, key: 'answers_test_nope' })).status).toBe(401);
  });

  it('list-order-wrong: the collection list is sorted by name, not by creation date', async () => {
    const { plain, faulty } = await mocks('list-order-wrong');
    const correct = (await send(plain, { path: '/collections' })).json.data;
    const wrong = (await send(faulty, { path: '/collections' })).json.data;
    const dates = (items: any[]) => items.map((c) => c.created_at as string);
    expect(dates(correct)).toEqual(dates(correct).sort());
    expect(correct.map((c: any) => c.id)).toEqual(acme.map((c) => c.id));
    expect(wrong.map((c: any) => c.name)).toEqual(
      acme
        .map((c) => c.name)
        .sort()
        .reverse(),
    );
    expect(dates(wrong)).not.toEqual([...dates(wrong)].sort());
    expect(dates(wrong)).not.toEqual([...dates(wrong)].sort().reverse());
    expect(new Set(wrong.map((c: any) => c.id))).toEqual(new Set(acme.map((c) => c.id)));
  });

  it('page-skips-item: a walk of a list misses the last item of every full page', async () => {
    const { plain, faulty } = await mocks('page-skips-item');
    expect((await walk(plain, '/collections', 4)).map((c) => c.id)).toEqual(acme.map((c) => c.id));
    const walked = (await walk(faulty, '/collections', 4)).map((c) => c.id);
    expect(walked).toEqual(acme.map((c) => c.id).filter((_, i) => i !== 3));

    const onboarding = byName('Onboarding guide');
    const objectsPath = `/collections/${onboarding.id}/objects`;
    const all = objectsOf(onboarding.id).map((o) => o.id);
    expect(all).toHaveLength(5);
    expect((await walk(plain, objectsPath, 2)).map((o) => o.id)).toEqual(all);
    expect((await walk(faulty, objectsPath, 2)).map((o) => o.id)).toEqual([all[0], all[2], all[4]]);
  });

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

  it('system-fields-missing: objects lack created_at and version', async () => {
    const { plain, faulty } = await mocks('system-fields-missing');
    const collection = byName('Glossary');
    const object = objectsOf(collection.id)[0]!;
    const cases: Array<[string, Sent]> = [
      ['getObject', { path: `/collections/${collection.id}/objects/${object.id}` }],
      ['listObjects', { path: `/collections/${collection.id}/objects` }],
      [
        'createObject',
        {
          method: 'POST',
          path: `/collections/${collection.id}/objects`,
          body: { content: { a: 'b' } },
        },
      ],
    ];
    for (const [operationId, sent] of cases) {
      expect(await violations(plain, operationId, sent), operationId).toEqual([]);
      expect((await violations(faulty, operationId, sent)).length, operationId).toBeGreaterThan(0);
    }
    const got = (await send(faulty, cases[0]![1])).json;
    expect(got).not.toHaveProperty('created_at');
    expect(got).not.toHaveProperty('version');
    expect(got).toMatchObject({ id: object.id, updated_at: object.updated_at });
  });

  it('counts-wrong: object_count of non-empty collections is one too many', async () => {
    const { plain, faulty } = await mocks('counts-wrong');
    const counts = async (mock: AnswersMock) =>
      (await send(mock, { path: '/collections' })).json.data.map((c: any) => c.object_count);
    const truth = acme.map((c) => objectsOf(c.id).length);
    expect(truth).toContain(0);
    expect(await counts(plain)).toEqual(truth);
    expect(await counts(faulty)).toEqual(truth.map((n) => (n > 0 ? n + 1 : 0)));
    const faq = byName('Product FAQ');
    expect((await send(plain, { path: `/collections/${faq.id}` })).json.object_count).toBe(24);
    expect((await send(faulty, { path: `/collections/${faq.id}` })).json.object_count).toBe(25);
  });

  it("cross-account-leak: another account's collection is visible by id", async () => {
    const { plain, faulty } = await mocks('cross-account-leak');
    const foreign: Sent = { path: `/collections/${acme[1]!.id}`, key: KEYS.globex };
    const correct = await send(plain, foreign);
    expect(correct.status).toBe(404);
    expect(correct.json.code).toBe('collection_not_found');
    const leaked = await send(faulty, foreign);
    expect(leaked.status).toBe(200);
    expect(leaked.json).toMatchObject({ id: acme[1]!.id, name: acme[1]!.name });
    const unknown: Sent = { path: '/collections/col_00000000000000000000', key: KEYS.globex };
    expect((await send(faulty, unknown)).status).toBe(404);
  });

  it("search-ignores-query: every one of the caller's objects matches any query", async () => {
    const { plain, faulty } = await mocks('search-ignores-query');
    const sent: Sent = { method: 'POST', path: '/search', body: { query: 'xyzzyplugh' } };
    const correct = await send(plain, sent);
    expect(correct.status).toBe(200);
    expect(correct.json).toMatchObject({ data: [], total: 0, has_more: false });
    const wrong = await send(faulty, sent);
    expect(wrong.json).toMatchObject({ total: acmeObjectCount, has_more: true });
    expect(wrong.json.data).toHaveLength(10);
    expect(wrong.json.data.every((hit: any) => hit.score === 1)).toBe(true);
    expect(
      validateResponse('searchObjects', {
        status: 200,
        headers: new Headers(wrong.headers),
        body: wrong.body!,
      }),
    ).toEqual([]);
    // Its cursors work: a walk sees every acme object once.
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await send(faulty, {
        ...sent,
        body: { query: 'xyzzyplugh', limit: 40, cursor },
      });
      expect(page.status).toBe(200);
      seen.push(...page.json.data.map((hit: any) => hit.object.id));
      cursor = page.json.next_cursor ?? undefined;
    } while (cursor);
    expect(new Set(seen).size).toBe(acmeObjectCount);
    expect(seen).toHaveLength(acmeObjectCount);
  });

  it('wrong-content-type: successful JSON responses are labelled text/plain', async () => {
    const { plain, faulty } = await mocks('wrong-content-type');
    const sent: Sent = { path: '/collections' };
    expect((await send(plain, sent)).headers['content-type']).toBe('application/json');
    const wrong = await send(faulty, sent);
    expect(wrong.headers['content-type']).toBe('text/plain');
    expect(wrong.json.data).toHaveLength(acme.length);
    expect(await violations(plain, 'listCollections', sent)).toEqual([]);
    expect((await violations(faulty, 'listCollections', sent)).length).toBeGreaterThan(0);
    // Errors keep their media type.
    const refused = await send(faulty, { path: '/collections', key: null });
    expect(refused.headers['content-type']).toBe('application/problem+json');
  });

  it('schema-violation: object_count is a string', async () => {
    const { plain, faulty } = await mocks('schema-violation');
    const faq = byName('Product FAQ');
    const sent: Sent = { path: `/collections/${faq.id}` };
    expect((await send(plain, sent)).json.object_count).toBe(24);
    expect((await send(faulty, sent)).json.object_count).toBe('24');
    expect(await violations(plain, 'getCollection', sent)).toEqual([]);
    expect((await violations(faulty, 'getCollection', sent)).length).toBeGreaterThan(0);
    const listed = (await send(faulty, { path: '/collections' })).json.data;
    expect(listed.every((c: any) => typeof c.object_count === 'string')).toBe(true);
  });

  it('bearer-scheme-case-sensitive: "bearer <key>" in lower case gets 401', async () => {
    const { plain, faulty } = await mocks('bearer-scheme-case-sensitive');
    const lower: Sent = {
      path: '/collections',
      key: null,
      headers: { authorization: `bearer ${KEYS.full}` },
    };
    expect((await send(plain, lower)).status).toBe(200);
    const refused = await send(faulty, lower);
    expect(refused.status).toBe(401);
    expect(refused.json.code).toBe('malformed_credentials');
    expect(refused.headers['www-authenticate']).toContain('error="invalid_request"');
    expect((await send(faulty, { path: '/collections' })).status).toBe(200);
    // The route is still matched first.
    expect((await send(faulty, { ...lower, path: '/nowhere' })).status).toBe(404);
  });

  it('inactive-key-accepted: an inactive key is served like an active one', async () => {
    const { plain, faulty } = await mocks('inactive-key-accepted');
    const forms: Sent[] = [
      { path: '/collections', key: KEYS.inactive },
      { path: '/collections', key: null, headers: { 'x-answers-api-key': KEYS.inactive } },
    ];
    for (const sent of forms) {
      const correct = await send(plain, sent);
      expect(correct.status).toBe(401);
      expect(correct.json.code).toBe('inactive_api_key');
      const served = await send(faulty, sent);
      expect(served.status).toBe(200);
      expect(served.json.data.map((c: any) => c.id)).toEqual(acme.map((c) => c.id));
    }
    expect((await send(faulty, { path: '/collections', key: 'answers_test_nope' })).status).toBe(
      401,
    );
    const denied = { method: 'DELETE', path: `/collections/${acme[5]!.id}`, key: KEYS.readonly };
    expect((await send(faulty, denied)).json.code).toBe('insufficient_permission');
  });

  it('malformed-header-accepted: any scheme and extra parts are read as "<scheme> <key>"', async () => {
    const { plain, faulty } = await mocks('malformed-header-accepted');
    const header = (authorization: string): Sent => ({
      path: '/collections',
      key: null,
      headers: { authorization },
    });
    for (const value of [`Basic ${KEYS.full}`, `Bearer ${KEYS.full} extra`]) {
      const correct = await send(plain, header(value));
      expect(correct.status, value).toBe(401);
      expect(correct.json.code).toBe('malformed_credentials');
      const served = await send(faulty, header(value));
      expect(served.status, value).toBe(200);
      expect(served.json.data).toHaveLength(acme.length);
    }
    // Still refused: no key at all in the header, or a key that is not valid.
    expect((await send(faulty, header('Bearer'))).json.code).toBe('malformed_credentials');
    expect((await send(faulty, header(''))).status).toBe(401);
    expect((await send(faulty, header('Basic answers_test_nope'))).json.code).toBe(
      'invalid_api_key',
    );
  });

  it('conflicting-keys-first-wins: Authorization wins over a different X-Answers-API-Key', async () => {
    const { plain, faulty } = await mocks('conflicting-keys-first-wins');
    const both = (bearer: string, header: string): Sent => ({
      path: '/collections',
      key: bearer,
      headers: { 'x-answers-api-key': header },
    });
    const correct = await send(plain, both(KEYS.full, KEYS.globex));
    expect(correct.status).toBe(401);
    expect(correct.json.code).toBe('conflicting_api_keys');
    const acmeIds = acme.map((c) => c.id);
    const served = await send(faulty, both(KEYS.full, KEYS.globex));
    expect(served.status).toBe(200);
    expect(served.json.data.map((c: any) => c.id)).toEqual(acmeIds);
    const reversed = await send(faulty, both(KEYS.globex, KEYS.full));
    expect(reversed.status).toBe(200);
    expect(reversed.json.data.map((c: any) => c.id)).not.toContain(acmeIds[0]);
    expect((await send(faulty, both(KEYS.full, KEYS.full))).status).toBe(200);
  });

  it('no-challenge: a 401 lacks WWW-Authenticate', async () => {
    const { plain, faulty } = await mocks('no-challenge');
    const cases: Sent[] = [
      { path: '/collections', key: null },
      { path: '/collections', key: 'answers_test_nope' },
      { method: 'DELETE', path: `/collections/${acme[5]!.id}`, key: KEYS.readonly },
    ];
    for (const sent of cases) {
      const correct = await send(plain, sent);
      expect(correct.headers['www-authenticate']).toMatch(/^Bearer realm="answers"/);
      const wrong = await send(faulty, sent);
      expect([wrong.status, wrong.json.code]).toEqual([401, correct.json.code]);
      expect(wrong.headers).not.toHaveProperty('www-authenticate');
    }
    expect((await violations(faulty, 'listCollections', cases[0]!)).length).toBeGreaterThan(0);
  });

  it('summary-without-count: list items lack object_count', async () => {
    const { plain, faulty } = await mocks('summary-without-count');
    const sent: Sent = { path: '/collections' };
    expect(
      (await send(plain, sent)).json.data.every((c: any) => Number.isInteger(c.object_count)),
    ).toBe(true);
    const listed = (await send(faulty, sent)).json.data;
    expect(listed.map((c: any) => c.id)).toEqual(acme.map((c) => c.id));
    for (const item of listed) expect(item).not.toHaveProperty('object_count');
    expect(await violations(plain, 'listCollections', sent)).toEqual([]);
    expect((await violations(faulty, 'listCollections', sent)).length).toBeGreaterThan(0);
    const faq = byName('Product FAQ');
    expect((await send(faulty, { path: `/collections/${faq.id}` })).json.object_count).toBe(24);
  });

  it('limit-clamped: a limit outside 1-100 is replaced instead of refused', async () => {
    const { plain, faulty } = await mocks('limit-clamped');
    const cases: Array<[string, number]> = [
      ['0', 1],
      ['-1', 1],
      ['2.5', 2],
      ['101', acme.length],
      ['abc', acme.length],
    ];
    for (const [limit, items] of cases) {
      const correct = await send(plain, { path: '/collections', query: { limit } });
      expect([correct.status, correct.json.code]).toEqual([400, 'invalid_parameter']);
      const served = await send(faulty, { path: '/collections', query: { limit } });
      expect(served.status, limit).toBe(200);
      expect(served.json.data, limit).toHaveLength(items);
    }
    const objects = `/collections/${byName('Product FAQ').id}/objects`;
    expect((await send(faulty, { path: objects, query: { limit: '0' } })).json.data).toHaveLength(
      1,
    );
    // Other parameters are still checked.
    expect((await send(faulty, { path: '/collections', query: { order: 'up' } })).status).toBe(400);
  });

  it('cursor-ignored: an unusable cursor restarts the list instead of 400', async () => {
    const { plain, faulty } = await mocks('cursor-ignored');
    const bad: Sent = { path: '/collections', query: { limit: '2', cursor: 'not-a-cursor' } };
    const correct = await send(plain, bad);
    expect([correct.status, correct.json.code]).toEqual([400, 'invalid_cursor']);
    const served = await send(faulty, bad);
    expect(served.status).toBe(200);
    expect(served.json.data.map((c: any) => c.id)).toEqual(acme.slice(0, 2).map((c) => c.id));
    // Valid cursors still work.
    expect((await walk(faulty, '/collections', 2)).map((c) => c.id)).toEqual(acme.map((c) => c.id));
  });

  it('collection-lookup-off-by-one: get answers the next collection, the newest 404', async () => {
    const { plain, faulty } = await mocks('collection-lookup-off-by-one');
    for (const [i, collection] of acme.entries()) {
      const sent: Sent = { path: `/collections/${collection.id}` };
      expect((await send(plain, sent)).json.id).toBe(collection.id);
      const got = await send(faulty, sent);
      if (i + 1 < acme.length) {
        expect(got.status).toBe(200);
        expect(got.json).toMatchObject({ id: acme[i + 1]!.id, name: acme[i + 1]!.name });
      } else {
        expect([got.status, got.json.code]).toEqual([404, 'collection_not_found']);
      }
    }
    const unknown = await send(faulty, { path: '/collections/col_00000000000000000000' });
    expect(unknown.status).toBe(404);
  });

  it('not-found-is-500: unknown collection and object ids get 500', async () => {
    const { plain, faulty } = await mocks('not-found-is-500');
    const faq = byName('Product FAQ');
    const cases: Array<[Sent, string]> = [
      [{ path: '/collections/col_00000000000000000000' }, 'collection_not_found'],
      [{ path: `/collections/${faq.id}/objects/obj_00000000000000000000` }, 'object_not_found'],
      [{ path: `/collections/${faq.id}`, key: KEYS.globex }, 'collection_not_found'],
    ];
    for (const [sent, code] of cases) {
      const correct = await send(plain, sent);
      expect([correct.status, correct.json.code]).toEqual([404, code]);
      const wrong = await send(faulty, sent);
      expect([wrong.status, wrong.json.code]).toEqual([500, 'internal_error']);
    }
    expect((await send(faulty, { path: `/collections/${faq.id}` })).status).toBe(200);
    expect((await send(faulty, { path: `/collections/${'a'.repeat(200)}` })).status).toBe(400);
  });

  it('client-system-fields-accepted: unknown fields in create bodies are dropped, not refused', async () => {
    const { plain, faulty } = await mocks('client-system-fields-accepted');
    const path = `/collections/${byName('Drafts').id}/objects`;
    const sent: Sent = {
      method: 'POST',
      path,
      body: { content: { a: 'b' }, id: 'obj_aaaaaaaaaaaaaaaaaaaa', version: 99 },
    };
    const correct = await send(plain, sent);
    expect([correct.status, correct.json.code]).toEqual([400, 'validation_failed']);
    const created = await send(faulty, sent);
    expect(created.status).toBe(201);
    expect(created.json).toMatchObject({ content: { a: 'b' }, version: 1 });
    expect(created.json.id).not.toBe('obj_aaaaaaaaaaaaaaaaaaaa');
    const collection: Sent = {
      method: 'POST',
      path: '/collections',
      body: { name: 'Fields', created_at: '2000-01-01T00:00:00.000Z' },
    };
    expect((await send(plain, collection)).status).toBe(400);
    const made = await send(faulty, collection);
    expect(made.status).toBe(201);
    expect(made.json.created_at).not.toBe('2000-01-01T00:00:00.000Z');
    // A body missing a required field is still refused.
    expect((await send(faulty, { method: 'POST', path, body: { id: 'x' } })).status).toBe(400);
  });

  it('search-index-stale: objects created after start-up are never found', async () => {
    const { plain, faulty } = await mocks('search-index-stale');
    const path = `/collections/${byName('Drafts').id}/objects`;
    const search: Sent = { method: 'POST', path: '/search', body: { query: 'zebrastale' } };
    const run = async (mock: AnswersMock) => {
      const created = await send(mock, {
        method: 'POST',
        path,
        body: { content: { title: 'zebrastale' } },
      });
      expect(created.status).toBe(201);
      return (await send(mock, search)).json;
    };
    expect(await run(plain)).toMatchObject({ total: 1 });
    expect(await run(faulty)).toMatchObject({ data: [], total: 0 });
    // What was there at start-up is still found.
    const object = objectsOf(byName('Onboarding guide').id)[0]!;
    const word = words(String(object.content.title))[0]!;
    const found = await send(faulty, { ...search, body: { query: word, limit: 100 } });
    expect(found.json.data.map((hit: any) => hit.object.id)).toContain(object.id);
  });

  it('search-filter-ignored: collection_ids does not restrict the hits', async () => {
    const { plain, faulty } = await mocks('search-filter-ignored');
    const [first, second] = [byName('Drafts'), byName('Glossary')];
    const run = async (mock: AnswersMock) => {
      for (const collection of [first, second]) {
        const created = await send(mock, {
          method: 'POST',
          path: `/collections/${collection.id}/objects`,
          body: { content: { title: 'zebrafilter' } },
        });
        expect(created.status).toBe(201);
      }
      const found = await send(mock, {
        method: 'POST',
        path: '/search',
        body: { query: 'zebrafilter', collection_ids: [first.id] },
      });
      return found.json.data.map((hit: any) => hit.collection_id).sort();
    };
    expect(await run(plain)).toEqual([first.id]);
    expect(await run(faulty)).toEqual([first.id, second.id].sort());
    const unknown: Sent = {
      method: 'POST',
      path: '/search',
      body: { query: 'zebrafilter', collection_ids: ['col_00000000000000000000'] },
    };
    expect((await send(plain, unknown)).status).toBe(404);
    expect((await send(faulty, unknown)).status).toBe(200);
  });

  it("search-cross-account: search also returns other accounts' objects", async () => {
    const { plain, faulty } = await mocks('search-cross-account');
    const run = async (mock: AnswersMock) => {
      const created = await send(mock, {
        method: 'POST',
        path: `/collections/${byName('Drafts').id}/objects`,
        body: { content: { title: 'zebracross' } },
      });
      expect(created.status).toBe(201);
      const theirs = await send(mock, {
        method: 'POST',
        path: '/search',
        key: KEYS.globex,
        body: { query: 'zebracross' },
      });
      expect(theirs.status).toBe(200);
      return { id: created.json.id, found: theirs.json };
    };
    const correct = await run(plain);
    expect(correct.found).toMatchObject({ data: [], total: 0 });
    const wrong = await run(faulty);
    expect(wrong.found.total).toBe(1);
    expect(wrong.found.data.map((hit: any) => hit.object.id)).toEqual([wrong.id]);
    expect(wrong.found.data[0].collection_id).toBe(byName('Drafts').id);
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

  it('method-not-allowed-404: an unsupported method gets 404 without Allow', async () => {
    const { plain, faulty } = await mocks('method-not-allowed-404');
    const sent: Sent = { method: 'PUT', path: '/collections' };
    const correct = await send(plain, sent);
    expect([correct.status, correct.json.code]).toEqual([405, 'method_not_allowed']);
    expect(correct.headers.allow).toBe('GET, POST');
    const wrong = await send(faulty, sent);
    expect([wrong.status, wrong.json.code]).toEqual([404, 'not_found']);
    expect(wrong.headers).not.toHaveProperty('allow');
    expect((await send(faulty, { path: '/collections' })).status).toBe(200);
  });

  it('malformed-json-500: a body that is not JSON gets 500', async () => {
    const { plain, faulty } = await mocks('malformed-json-500');
    const search: Sent = { method: 'POST', path: '/search' };
    const correct = await sendRaw(plain, search, '{"query":');
    expect([correct.status, correct.json.code]).toEqual([400, 'malformed_json']);
    const wrong = await sendRaw(faulty, search, '{"query":');
    expect([wrong.status, wrong.json.code]).toEqual([500, 'internal_error']);
    // Well-formed but invalid bodies are still refused with 400.
    const invalid = await send(faulty, { ...search, body: { query: '' } });
    expect([invalid.status, invalid.json.code]).toEqual([400, 'validation_failed']);
  });

  it('validation-before-auth: an invalid request without a key gets 400, not 401', async () => {
    const { plain, faulty } = await mocks('validation-before-auth');
    const cases: Array<[Sent, string | undefined, string]> = [
      [{ path: '/collections', key: null, query: { limit: '0' } }, undefined, 'invalid_parameter'],
      [{ method: 'POST', path: '/search', key: null }, '{"query":', 'malformed_json'],
      [
        { path: `/collections/${'a'.repeat(200)}`, key: 'answers_test_nope' },
        undefined,
        'invalid_parameter',
      ],
    ];
    for (const [sent, raw, code] of cases) {
      const answer = (mock: AnswersMock) =>
        raw === undefined ? send(mock, sent) : sendRaw(mock, sent, raw);
      expect((await answer(plain)).status).toBe(401);
      const wrong = await answer(faulty);
      expect([wrong.status, wrong.json.code]).toEqual([400, code]);
    }
    // A valid request without a key is still refused.
    expect((await send(faulty, { path: '/collections', key: null })).status).toBe(401);
  });

  it('object-nested-content-dropped: get answers content without nested values', async () => {
    const { plain, faulty } = await mocks('object-nested-content-dropped');
    const path = `/collections/${byName('Drafts').id}/objects`;
    const content = { title: 'nested', count: 2, tags: ['a', 'b'], meta: { lang: 'en' } };
    const run = async (mock: AnswersMock) => {
      const created = await send(mock, { method: 'POST', path, body: { content } });
      expect(created.json.content).toEqual(content);
      const listed = (await send(mock, { path })).json.data.find(
        (o: any) => o.id === created.json.id,
      );
      expect(listed.content).toEqual(content);
      return (await send(mock, { path: `${path}/${created.json.id}` })).json;
    };
    expect((await run(plain)).content).toEqual(content);
    const got = await run(faulty);
    expect(got.content).toEqual({ title: 'nested', count: 2 });
    expect(got).toMatchObject({ version: 1, collection_id: byName('Drafts').id });
  });

  it('error-body-not-problem: errors are plain JSON without a problem code', async () => {
    const { plain, faulty } = await mocks('error-body-not-problem');
    const cases: Sent[] = [
      { path: '/collections/col_00000000000000000000' },
      { path: '/collections', key: null },
      { path: '/collections', query: { limit: '0' } },
    ];
    for (const sent of cases) {
      const correct = await send(plain, sent);
      expect(correct.headers['content-type']).toBe('application/problem+json');
      const wrong = await send(faulty, sent);
      expect(wrong.status).toBe(correct.status);
      expect(wrong.headers['content-type']).toBe('application/json');
      expect(wrong.json).toEqual({ error: correct.json.detail });
    }
    const refused = await send(faulty, cases[1]!);
    expect(refused.headers['www-authenticate']).toMatch(/^Bearer/);
    expect((await send(faulty, { path: '/collections' })).json.data).toHaveLength(acme.length);
  });
});
