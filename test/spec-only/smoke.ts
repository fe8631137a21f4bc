/**
 * Smoke run of the correct spec-only server (no flaws): every operation once.
 *   node --import tsx test/spec-only/smoke.ts
 */
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { startSpecOnlyServer, LIMITS, WINDOWS } from './server.ts';

const server = await startSpecOnlyServer({});
const { url, keys } = server;
const A = keys.alpha;
const B = keys.beta;

interface Answer {
  status: number;
  headers: Headers;
  body: any;
}

async function call(
  method: string,
  path: string,
  key: string | null,
  body?: unknown,
  form: 'bearer' | 'x' = 'bearer',
): Promise<Answer> {
  const headers: Record<string, string> = { 'Content-Type': 'application/json' };
  if (key !== null) {
    if (form === 'bearer') headers.Authorization = `Bearer ${key}`;
    else headers['X-Answers-API-Key'] = key;
  }
  const res = await fetch(path.startsWith('http') ? path : `${url}${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await res.text();
  return {
    status: res.status,
    headers: res.headers,
    body: text === '' ? undefined : JSON.parse(text),
  };
}

function nextLink(a: Answer): string | undefined {
  const link = a.headers.get('link');
  if (link === null) return undefined;
  const m = /<([^>]+)>\s*;\s*rel="next"/.exec(link);
  return m?.[1];
}

let steps = 0;
const step = (name: string): void => {
  steps++;
  console.log(`ok ${steps} ${name}`);
};

try {
  /* authentication, §5 / §7 */
  assert.equal((await call('GET', '/v1/collections', null)).status, 401);
  assert.equal((await call('GET', '/v1/collections', 'nope')).status, 401);
  assert.equal((await call('GET', '/v1/collections', A.inactive)).status, 401);
  assert.equal((await call('GET', '/v1/collections', A.inactive, undefined, 'x')).status, 401);
  const malformed = await fetch(`${url}/v1/collections`, { headers: { Authorization: A.full } });
  assert.equal(malformed.status, 401);
  const empty = await call('GET', '/v1/collections', A.full, undefined, 'x');
  assert.equal(empty.status, 200);
  assert.deepEqual(empty.body, []);
  assert.equal(empty.headers.get('link'), null);
  step('401 for missing, invalid, inactive and malformed keys; both header forms accepted');

  /* create collections */
  const made: any[] = [];
  for (const name of ['manuals', 'faq', 'release notes']) {
    const r = await call('POST', '/api/answers/collections', A.full, {
      name,
      metadata: { team: 'docs' },
    });
    assert.equal(r.status, 201);
    assert.match(r.body.id, /^col_[0-9]{4,}$/);
    assert.equal(r.headers.get('location'), `/api/answers/collections/${r.body.id}`);
    assert.equal(r.body.objectCount, 0);
    made.push(r.body);
  }
  assert.equal(
    (await call('POST', '/api/answers/collections', A.readOnly, { name: 'x' })).status,
    401,
  );
  step('create collections (201); read-only key refused 401');

  /* two-page walk by Link header */
  const page1 = await call('GET', '/v1/collections?per_page=2', A.full);
  assert.equal(page1.status, 200);
  assert.deepEqual(
    page1.body.map((c: any) => c.id),
    [made[0].id, made[1].id],
  );
  const next = nextLink(page1);
  assert.ok(next, 'page 1 has a next link');
  const page2 = await call('GET', next, A.full);
  assert.deepEqual(
    page2.body.map((c: any) => c.id),
    [made[2].id],
  );
  assert.equal(nextLink(page2), undefined);
  assert.equal(
    (await call('GET', `/v1/collections?per_page=${LIMITS.pageMax + 1}`, A.full)).status,
    400,
  );
  assert.equal((await call('GET', '/v1/collections?cursor=bogus', A.full)).status, 400);
  step('two-page walk by Link rel="next"; per_page over the maximum is 400');

  /* get, rename, metadata */
  const col = made[0];
  const got = await call('GET', `/api/answers/collections/${col.id}`, A.full);
  assert.equal(got.status, 200);
  assert.deepEqual(got.body, col);
  assert.equal((await call('GET', `/api/answers/collections/${col.id}`, B.full)).status, 404);
  const renamed = await call('PATCH', `/api/answers/collections/${col.id}`, A.full, {
    name: 'user manuals',
  });
  assert.equal(renamed.status, 200);
  assert.equal(renamed.body.name, 'user manuals');
  assert.equal(
    (await call('PATCH', `/api/answers/collections/${col.id}`, A.full, { name: 'x', metadata: {} }))
      .status,
    422,
  );
  const meta = await call('PUT', `/api/answers/collections/${col.id}/metadata`, A.full, {
    team: 'support',
    tier: 2,
  });
  assert.equal(meta.status, 200);
  assert.deepEqual(meta.body, { team: 'support', tier: 2 });
  assert.deepEqual(
    (await call('GET', `/api/answers/collections/${col.id}/metadata`, A.full)).body,
    { team: 'support', tier: 2 },
  );
  step('get (other account 404), rename by PATCH, metadata replaced by PUT');

  /* refused oversized or malformed writes store nothing */
  const bigMeta = { blob: 'x'.repeat(LIMITS.metadataBytes) };
  assert.equal(
    (await call('PUT', `/api/answers/collections/${col.id}/metadata`, A.full, bigMeta)).status,
    422,
  );
  assert.equal(
    (
      await call('PUT', `/api/answers/collections/${col.id}/metadata`, A.full, {
        a: { b: { c: { d: {} } } },
      })
    ).status,
    422,
  );
  assert.equal(
    (
      await call('PATCH', `/api/answers/collections/${col.id}`, A.full, {
        name: 'n'.repeat(LIMITS.nameChars + 1),
      })
    ).status,
    422,
  );
  assert.equal((await call('POST', '/api/answers/collections', A.full, '{not json')).status, 400);
  const after = await call('GET', `/api/answers/collections/${col.id}`, A.full);
  assert.equal(after.body.name, 'user manuals');
  assert.deepEqual(after.body.metadata, { team: 'support', tier: 2 });
  assert.equal((await call('GET', '/v1/collections', A.full)).body.length, 3);
  step('oversized metadata / too deep / long name refused 422, bad JSON 400, nothing stored');

  /* objects */
  const o1 = await call('POST', `/api/answers/collections/${col.id}/objects`, A.full, {
    title: 'Reset your password',
    body: 'Open settings, choose reset password.',
  });
  assert.equal(o1.status, 201);
  assert.match(o1.body._id, /^obj_[0-9]{6,}$/);
  assert.equal(o1.body._collection, col.id);
  assert.equal(o1.body._rev, 1);
  const o2 = await call('POST', `/api/answers/collections/${col.id}/objects`, A.full, {
    title: 'Billing',
    body: 'Invoices are monthly.',
  });
  assert.equal(o2.status, 201);
  const bigContent = { text: 'y'.repeat(LIMITS.contentBytes) };
  assert.equal(
    (await call('POST', `/api/answers/collections/${col.id}/objects`, A.full, bigContent)).status,
    413,
  );
  assert.equal(
    (await call('POST', `/api/answers/collections/${col.id}/objects`, A.full, { _id: 'mine' }))
      .status,
    422,
  );
  const fetched = await call(
    'GET',
    `/api/answers/collections/${col.id}/objects/${o1.body._id}`,
    A.full,
  );
  assert.equal(fetched.status, 200);
  assert.deepEqual(fetched.body, o1.body);
  const counted = await call('GET', `/api/answers/collections/${col.id}`, A.full);
  assert.equal(counted.body.objectCount, 2);
  const objPage = await call(
    'GET',
    `/api/answers/collections/${col.id}/objects?per_page=1`,
    A.full,
  );
  assert.deepEqual(
    objPage.body.map((o: any) => o._id),
    [o1.body._id],
  );
  const objPage2 = await call('GET', nextLink(objPage)!, A.full);
  assert.deepEqual(
    objPage2.body.map((o: any) => o._id),
    [o2.body._id],
  );
  const updated = await call(
    'PUT',
    `/api/answers/collections/${col.id}/objects/${o2.body._id}`,
    A.full,
    { title: 'Billing', body: 'Invoices are quarterly.' },
  );
  assert.equal(updated.status, 200);
  assert.equal(updated.body._rev, 2);
  assert.equal(updated.body._created, o2.body._created);
  step('objects: create 201, oversized content 413, get, list by Link, replace');

  /* search (bounded lag) */
  await sleep(WINDOWS.searchBoundMs);
  const hits = await call(
    'GET',
    `/api/answers/search?q=${encodeURIComponent('password reset')}`,
    A.full,
  );
  assert.equal(hits.status, 200);
  assert.equal(hits.body.length, 1);
  assert.ok(hits.body[0].score > 0);
  assert.deepEqual(hits.body[0].object, o1.body);
  const quarterly = await call(
    'GET',
    `/api/answers/search?q=quarterly&collection=${col.id}`,
    A.full,
  );
  assert.deepEqual(
    quarterly.body.map((h: any) => h.object),
    [updated.body],
  );
  assert.deepEqual((await call('GET', '/api/answers/search?q=quarterly', B.full)).body, []);
  assert.equal((await call('GET', '/api/answers/search', A.full)).status, 400);
  step('search hits carry the whole object and a score; other account sees none');

  /* object delete */
  assert.equal(
    (await call('DELETE', `/api/answers/collections/${col.id}/objects/${o2.body._id}`, A.readOnly))
      .status,
    401,
  );
  assert.equal(
    (await call('DELETE', `/api/answers/collections/${col.id}/objects/${o2.body._id}`, A.full))
      .status,
    204,
  );
  assert.equal(
    (await call('GET', `/api/answers/collections/${col.id}/objects/${o2.body._id}`, A.full)).status,
    410,
  );
  assert.equal(
    (await call('GET', `/api/answers/collections/${col.id}`, A.full)).body.objectCount,
    1,
  );
  step('object delete 204, then 410, count follows');

  /* collection delete, then the cascade window */
  assert.equal((await call('DELETE', `/api/answers/collections/${col.id}`, B.full)).status, 404);
  assert.equal((await call('DELETE', `/api/answers/collections/${col.id}`, A.full)).status, 204);
  assert.equal((await call('GET', `/api/answers/collections/${col.id}`, A.full)).status, 410);
  assert.ok(!(await call('GET', '/v1/collections', A.full)).body.some((c: any) => c.id === col.id));
  const during = await call(
    'GET',
    `/api/answers/collections/${col.id}/objects/${o1.body._id}`,
    A.full,
  );
  assert.ok(during.status === 200 || during.status === 410, `during the window: ${during.status}`);
  assert.equal(
    (
      await call('PUT', `/api/answers/collections/${col.id}/objects/${o1.body._id}`, A.full, {
        t: 'late',
      })
    ).status,
    410,
  );
  assert.equal(
    (await call('POST', `/api/answers/collections/${col.id}/objects`, A.full, { t: 'late' }))
      .status,
    410,
  );
  await sleep(WINDOWS.cascadeBoundMs);
  const gone = await call(
    'GET',
    `/api/answers/collections/${col.id}/objects/${o1.body._id}`,
    A.full,
  );
  assert.equal(gone.status, 410);
  assert.equal(gone.body.fault.status, 410);
  assert.deepEqual((await call('GET', '/api/answers/search?q=password', A.full)).body, []);
  step('collection delete 204, get 410 at once, object get 410 after the cascade window');

  console.log(`smoke: all ${steps} steps passed`);
} finally {
  await server.close();
}
