/**
 * Each seeded flaw has a probe here: a short request sequence that the correct
 * server passes and the server with that one flaw switched on fails.
 *   node --import tsx test/spec-only/flaws-check.ts
 */
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { FLAWS, FLAW_NAMES, type FlawName } from './flaws.ts';
import { startSpecOnlyServer, LIMITS, WINDOWS, type SpecOnlyServer } from './server.ts';

type Call = (
  method: string,
  path: string,
  key: string | null,
  body?: unknown,
  headers?: Record<string, string>,
) => Promise<{ status: number; headers: Headers; body: any }>;

function caller(server: SpecOnlyServer): Call {
  return async (method, path, key, body, extra = {}) => {
    const headers: Record<string, string> = { 'Content-Type': 'application/json', ...extra };
    if (key !== null) headers.Authorization = `Bearer ${key}`;
    const res = await fetch(path.startsWith('http') ? path : `${server.url}${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return {
      status: res.status,
      headers: res.headers,
      body: text === '' ? undefined : JSON.parse(text),
    };
  };
}

const C = '/api/answers/collections';

/** A probe throws (an assertion) when the server misbehaves. */
const PROBES: Record<FlawName, (s: SpecOnlyServer, call: Call) => Promise<void>> = {
  'inactive-key-x-header': async (s, call) => {
    assert.equal(
      (
        await call('GET', '/v1/collections', null, undefined, {
          'X-Answers-API-Key': s.keys.alpha.inactive,
        })
      ).status,
      401,
    );
  },
  'bearer-prefix-optional': async (s, call) => {
    assert.equal(
      (await call('GET', '/v1/collections', null, undefined, { Authorization: s.keys.alpha.full }))
        .status,
      401,
    );
  },
  'search-unauthenticated': async (_s, call) => {
    assert.equal((await call('GET', '/api/answers/search?q=x', null)).status, 401);
  },
  'readonly-can-put-metadata': async (s, call) => {
    const c = (await call('POST', C, s.keys.alpha.full, { name: 'a' })).body;
    assert.equal(
      (await call('PUT', `${C}/${c.id}/metadata`, s.keys.alpha.readOnly, { k: 'v' })).status,
      401,
    );
  },
  'object-get-drops-system-fields': async (s, call) => {
    const c = (await call('POST', C, s.keys.alpha.full, { name: 'a' })).body;
    const o = (await call('POST', `${C}/${c.id}/objects`, s.keys.alpha.full, { t: 'x' })).body;
    assert.deepEqual(
      (await call('GET', `${C}/${c.id}/objects/${o._id}`, s.keys.alpha.full)).body,
      o,
    );
  },
  'hit-object-drops-system-fields': async (s, call) => {
    const c = (await call('POST', C, s.keys.alpha.full, { name: 'a' })).body;
    const o = (await call('POST', `${C}/${c.id}/objects`, s.keys.alpha.full, { t: 'findme' })).body;
    await sleep(WINDOWS.searchBoundMs);
    const hits = (await call('GET', '/api/answers/search?q=findme', s.keys.alpha.full)).body;
    assert.deepEqual(hits[0].object, o);
  },
  'list-omits-empty-metadata': async (s, call) => {
    await call('POST', C, s.keys.alpha.full, { name: 'a' });
    const list = (await call('GET', '/v1/collections', s.keys.alpha.full)).body;
    assert.deepEqual(list[0].metadata, {});
  },
  'count-stale-after-object-delete': async (s, call) => {
    const k = s.keys.alpha.full;
    const c = (await call('POST', C, k, { name: 'a' })).body;
    const o = (await call('POST', `${C}/${c.id}/objects`, k, { t: 'x' })).body;
    assert.equal((await call('DELETE', `${C}/${c.id}/objects/${o._id}`, k)).status, 204);
    assert.equal((await call('GET', `${C}/${c.id}`, k)).body.objectCount, 0);
  },
  'list-leaks-other-account': async (s, call) => {
    await call('POST', C, s.keys.beta.full, { name: 'b' });
    assert.deepEqual((await call('GET', '/v1/collections', s.keys.alpha.full)).body, []);
  },
  'list-sorted-by-update': async (s, call) => {
    const k = s.keys.alpha.full;
    const a = (await call('POST', C, k, { name: 'a' })).body;
    const b = (await call('POST', C, k, { name: 'b' })).body;
    await call('PATCH', `${C}/${a.id}`, k, { name: 'a2' });
    assert.deepEqual(
      (await call('GET', '/v1/collections', k)).body.map((c: any) => c.id),
      [a.id, b.id],
    );
  },
  'last-page-dropped': async (s, call) => {
    const k = s.keys.alpha.full;
    const ids: string[] = [];
    for (const n of ['a', 'b', 'c']) ids.push((await call('POST', C, k, { name: n })).body.id);
    const seen: string[] = [];
    let next: string | undefined = '/v1/collections?per_page=2';
    while (next) {
      const page = await call('GET', next, k);
      seen.push(...page.body.map((c: any) => c.id));
      next = /<([^>]+)>;\s*rel="next"/.exec(page.headers.get('link') ?? '')?.[1];
    }
    assert.deepEqual(seen, ids);
  },
  'cascade-never-finishes': async (s, call) => {
    const k = s.keys.alpha.full;
    const c = (await call('POST', C, k, { name: 'a' })).body;
    const o = (await call('POST', `${C}/${c.id}/objects`, k, { t: 'x' })).body;
    await call('DELETE', `${C}/${c.id}`, k);
    await sleep(WINDOWS.cascadeBoundMs);
    assert.equal((await call('GET', `${C}/${c.id}/objects/${o._id}`, k)).status, 410);
  },
  'delete-undone-by-same-name': async (s, call) => {
    const k = s.keys.alpha.full;
    const c = (await call('POST', C, k, { name: 'kb' })).body;
    await call('POST', `${C}/${c.id}/objects`, k, { t: 'x' });
    await call('DELETE', `${C}/${c.id}`, k);
    await sleep(WINDOWS.cascadeBoundMs);
    const again = (await call('POST', C, k, { name: 'kb' })).body;
    assert.equal((await call('GET', `${C}/${again.id}`, k)).body.objectCount, 0);
    assert.deepEqual((await call('GET', `${C}/${again.id}/objects`, k)).body, []);
  },
  'search-shows-deleted-collection': async (s, call) => {
    const k = s.keys.alpha.full;
    const c = (await call('POST', C, k, { name: 'a' })).body;
    await call('POST', `${C}/${c.id}/objects`, k, { t: 'zebra' });
    await sleep(WINDOWS.searchBoundMs);
    await call('DELETE', `${C}/${c.id}`, k);
    await sleep(WINDOWS.cascadeBoundMs + WINDOWS.searchBoundMs);
    assert.deepEqual((await call('GET', '/api/answers/search?q=zebra', k)).body, []);
  },
  'search-stale-after-update': async (s, call) => {
    const k = s.keys.alpha.full;
    const c = (await call('POST', C, k, { name: 'a' })).body;
    const o = (await call('POST', `${C}/${c.id}/objects`, k, { t: 'zebra' })).body;
    await sleep(WINDOWS.searchBoundMs);
    const u = (await call('PUT', `${C}/${c.id}/objects/${o._id}`, k, { t: 'okapi' })).body;
    await sleep(WINDOWS.searchBoundMs);
    assert.deepEqual((await call('GET', '/api/answers/search?q=zebra', k)).body, []);
    assert.deepEqual(
      (await call('GET', '/api/answers/search?q=okapi', k)).body.map((h: any) => h.object),
      [u],
    );
  },
  'system-fields-lost-on-update': async (s, call) => {
    const k = s.keys.alpha.full;
    const c = (await call('POST', C, k, { name: 'a' })).body;
    const o = (await call('POST', `${C}/${c.id}/objects`, k, { t: 'x' })).body;
    await call('PUT', `${C}/${c.id}/objects/${o._id}`, k, { t: 'y' });
    const got = (await call('GET', `${C}/${c.id}/objects/${o._id}`, k)).body;
    assert.deepEqual(
      Object.keys(got)
        .filter((f) => f.startsWith('_'))
        .sort(),
      Object.keys(o)
        .filter((f) => f.startsWith('_'))
        .sort(),
    );
  },
  'object-ids-per-collection': async (s, call) => {
    const k = s.keys.alpha.full;
    const a = (await call('POST', C, k, { name: 'a' })).body;
    const b = (await call('POST', C, k, { name: 'b' })).body;
    const oa = (await call('POST', `${C}/${a.id}/objects`, k, { t: 'x' })).body;
    const ob = (await call('POST', `${C}/${b.id}/objects`, k, { t: 'x' })).body;
    assert.notEqual(oa._id, ob._id);
  },
  'other-account-get-allowed': async (s, call) => {
    const c = (await call('POST', C, s.keys.alpha.full, { name: 'a' })).body;
    assert.equal((await call('GET', `${C}/${c.id}`, s.keys.beta.full)).status, 404);
  },
};

async function run(flaws: FlawName[], probe: FlawName): Promise<boolean> {
  const server = await startSpecOnlyServer({ flaws });
  try {
    await PROBES[probe](server, caller(server));
    return true;
  } catch (err) {
    if (!(err instanceof assert.AssertionError)) throw err;
    return false;
  } finally {
    await server.close();
  }
}

assert.ok(LIMITS.pageMax > 0);
let failures = 0;
for (const name of FLAW_NAMES) {
  const correct = await run([], name);
  const flawed = await run([name], name);
  const ok = correct && !flawed;
  if (!ok) failures++;
  console.log(
    `${ok ? 'ok  ' : 'FAIL'} ${name} (correct server ${correct ? 'passes' : 'FAILS'}, flawed ${flawed ? 'PASSES' : 'fails'}; ${FLAWS[name].sequenceOnly ? 'sequence' : 'single request'})`,
  );
}
console.log(
  failures === 0
    ? `flaws-check: all ${FLAW_NAMES.length} flaws are caught by their probe and absent by default`
    : `flaws-check: ${failures} problem(s)`,
);
process.exitCode = failures === 0 ? 0 : 1;
