import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createMock, type AnswersMock } from '../../src/index.ts';
import { MAX_BODY_BYTES } from '../../src/core/http.ts';
import type { Snapshot } from '../../src/core/snapshot/snapshot.ts';
import { startServer, type RunningServer, type StartOptions } from '../../src/node/server.ts';
import { StateJournal } from '../../src/node/state-file/journal.ts';
import { readStateFile } from '../../src/node/state-file/read.ts';
import { assemble } from '../../src/assemble.ts';
import type { MockState } from '../../src/core/store/mock-state.ts';

const fixture = JSON.parse(
  await readFile(new URL('../../fixtures/default-state.json', import.meta.url), 'utf8'),
) as Snapshot;
const NOW = '2026-11-22T00:00:00.000Z';
const FULL = { authorization: 'Bearer answers_test_full_acme' };
const JSON_FULL = { ...FULL, 'content-type': 'application/json' };
const API = '/api/answers/v1';

let mock: AnswersMock;
/** The state behind `mock`, for the state file. */
let state: MockState;
let running: RunningServer;
let lines: string[];
const extra: RunningServer[] = [];

async function start(options: Partial<StartOptions> = {}): Promise<RunningServer> {
  const server = await startServer({
    mock,
    port: 0,
    logger: (line) => lines.push(line),
    ...options,
  });
  extra.push(server);
  return server;
}

/** A request to the server; control writes carry the JSON content type the control API needs. */
const call = (path: string, init: RequestInit = {}) =>
  fetch(`${running.url}${path}`, {
    ...init,
    headers:
      path.startsWith('/__mock') && init.method && init.method !== 'GET'
        ? { 'content-type': 'application/json', ...(init.headers as Record<string, string>) }
        : init.headers,
  });

async function listNames(base = running.url, headers: Record<string, string> = FULL) {
  const response = await fetch(`${base}${API}/collections?limit=100`, { headers });
  const body = (await response.json()) as { data: Array<{ id: string; name: string }> };
  return body.data;
}

beforeEach(async () => {
  lines = [];
  ({ mock, state } = await assemble({ initialState: fixture, now: NOW }));
  running = await start();
});

afterEach(async () => {
  await Promise.all(extra.splice(0).map((server) => server.close()));
});

describe('API over HTTP', () => {
  it('lists the 6 collections of acme with a full key', async () => {
    const response = await call(`${API}/collections`, { headers: FULL });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json');
    const body = (await response.json()) as { data: unknown[] };
    expect(body.data).toHaveLength(6);
  });

  it('answers a CORS preflight with 204 allowing both key headers', async () => {
    const response = await call(`${API}/collections`, {
      method: 'OPTIONS',
      headers: {
        origin: 'http://localhost:5173',
        'access-control-request-method': 'GET',
        'access-control-request-headers': 'x-answers-api-key',
      },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    const allowed = response.headers.get('access-control-allow-headers')?.toLowerCase() ?? '';
    expect(allowed).toContain('authorization');
    expect(allowed).toContain('x-answers-api-key');
    expect(response.headers.get('access-control-allow-methods')).toContain('DELETE');
  });

  it('makes a 401 readable cross-origin, WWW-Authenticate included', async () => {
    const response = await call(`${API}/collections`, { headers: { origin: 'http://a.test' } });
    expect(response.status).toBe(401);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(response.headers.get('access-control-expose-headers')).toContain('WWW-Authenticate');
    expect(response.headers.get('www-authenticate')).toContain('Bearer');
  });

  it('responds with 413 to a body over 1 MiB and keeps answering', async () => {
    const response = await call(`${API}/collections`, {
      method: 'POST',
      headers: JSON_FULL,
      body: `{"name":"${'x'.repeat(MAX_BODY_BYTES)}"}`,
    });
    expect(response.status).toBe(413);
    expect(response.headers.get('content-type')).toBe('application/problem+json');
    expect(await response.json()).toMatchObject({ status: 413, code: 'payload_too_large' });
    expect((await call(`${API}/collections`, { headers: FULL })).status).toBe(200);
  });

  it('answers unknown paths with a 404 problem', async () => {
    const response = await call('/nowhere', { headers: FULL });
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ code: 'not_found' });
  });
});

describe('documentation', () => {
  it('serves /docs from local assets', async () => {
    const page = await call('/docs');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    const html = await page.text();
    expect(html).toContain('/docs/assets/swagger-ui-bundle.js');
    expect(html).toContain('/docs/assets/swagger-ui.css');
    expect(html).not.toMatch(/https?:\/\//);
    const script = await call('/docs/assets/swagger-ui-bundle.js');
    expect(script.status).toBe(200);
    expect(script.headers.get('content-type')).toContain('javascript');
    expect((await script.text()).length).toBeGreaterThan(100_000);
    expect((await call('/docs/assets/swagger-ui.css')).status).toBe(200);
  });

  it('redirects / to /docs', async () => {
    const response = await call('/', { redirect: 'manual' });
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toBe('/docs');
  });

  it('serves openapi.yaml as is', async () => {
    const response = await call('/openapi.yaml');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/yaml');
    const file = await readFile(new URL('../../openapi.yaml', import.meta.url), 'utf8');
    expect(await response.text()).toBe(file);
  });
});

describe('control API', () => {
  it('restores a deleted collection on POST /__mock/reset', async () => {
    const [first] = await listNames();
    const deleted = await call(`${API}/collections/${first!.id}`, {
      method: 'DELETE',
      headers: FULL,
    });
    expect(deleted.status).toBe(204);
    expect(await listNames()).toHaveLength(5);
    expect((await call('/__mock/reset', { method: 'POST' })).status).toBe(204);
    expect((await listNames()).map((c) => c.id)).toContain(first!.id);
  });

  it('round-trips the state through GET and PUT /__mock/state', async () => {
    const exported = await (await call('/__mock/state')).json();
    const [first] = await listNames();
    await call(`${API}/collections/${first!.id}`, { method: 'DELETE', headers: FULL });
    const put = await call('/__mock/state', { method: 'PUT', body: JSON.stringify(exported) });
    expect(put.status).toBe(204);
    expect(await (await call('/__mock/state')).json()).toEqual(exported);
    expect(await listNames()).toHaveLength(6);
  });

  it('refuses an invalid state with 400 invalid_state', async () => {
    const response = await call('/__mock/state', { method: 'PUT', body: '{"accounts":[]}' });
    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toBe('application/problem+json');
    expect(await response.json()).toMatchObject({ status: 400, code: 'invalid_state' });
  });

  it('refuses malformed control bodies with 400 invalid_control_request', async () => {
    for (const [path, method, body] of [
      ['/__mock/clock', 'POST', '{"now":"yesterday"}'],
      ['/__mock/latency', 'PUT', '{"ms":-1}'],
      ['/__mock/failures', 'POST', '{"operation_id":"noSuchOperation","status":500}'],
      ['/__mock/failures', 'POST', 'not json'],
    ] as const) {
      const response = await call(path, { method, body });
      expect(response.status, `${method} ${path} ${body}`).toBe(400);
      expect(await response.json()).toMatchObject({ code: 'invalid_control_request' });
    }
  });

  it('answers 404 for an unknown control path and 405 with Allow for a wrong method', async () => {
    expect((await call('/__mock/nothing')).status).toBe(404);
    const response = await call('/__mock/reset');
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('POST');
  });

  it('makes the next call fail once with POST /__mock/failures', async () => {
    const queued = await call('/__mock/failures', {
      method: 'POST',
      body: JSON.stringify({ operation_id: 'listCollections', status: 500 }),
    });
    expect(queued.status).toBe(204);
    expect((await call(`${API}/collections`, { headers: FULL })).status).toBe(500);
    expect((await call(`${API}/collections`, { headers: FULL })).status).toBe(200);
  });

  it.each([
    [502, 'bad_gateway', null],
    [503, 'service_unavailable', '1'],
    [504, 'gateway_timeout', null],
  ])(
    'forces a gateway %i on any operation with a problem body (Retry-After %s)',
    async (status, code, retryAfter) => {
      const queued = await call('/__mock/failures', {
        method: 'POST',
        body: JSON.stringify({ operation_id: 'searchObjects', status }),
      });
      expect(queued.status).toBe(204);
      const response = await call(`${API}/search`, {
        method: 'POST',
        headers: JSON_FULL,
        body: JSON.stringify({ query: 'anything' }),
      });
      expect(response.status).toBe(status);
      expect(response.headers.get('content-type')).toBe('application/problem+json');
      expect(response.headers.get('retry-after')).toBe(retryAfter);
      expect(await response.json()).toMatchObject({
        status,
        code,
        type: `urn:answers:problem:${code}`,
      });
    },
  );

  it('refuses to force a status that is neither documented nor a gateway answer (418)', async () => {
    const response = await call('/__mock/failures', {
      method: 'POST',
      body: JSON.stringify({ operation_id: 'listCollections', status: 418 }),
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ code: 'invalid_control_request' });
    expect((await call(`${API}/collections`, { headers: FULL })).status).toBe(200);
  });

  it('drops queued failures on DELETE /__mock/failures', async () => {
    const body = JSON.stringify({ operation_id: 'listCollections', status: 500, times: 3 });
    await call('/__mock/failures', { method: 'POST', body });
    expect((await call('/__mock/failures', { method: 'DELETE' })).status).toBe(204);
    expect((await call(`${API}/collections`, { headers: FULL })).status).toBe(200);
  });

  it('stamps created_at with the instant set on POST /__mock/clock', async () => {
    const instant = '2027-03-04T05:06:07.089Z';
    const clock = await call('/__mock/clock', {
      method: 'POST',
      body: JSON.stringify({ now: instant }),
    });
    expect(await clock.json()).toEqual({ now: instant, frozen: true });
    const created = await call(`${API}/collections`, {
      method: 'POST',
      headers: JSON_FULL,
      body: JSON.stringify({ name: 'Clocked' }),
    });
    expect(created.status).toBe(201);
    expect(await created.json()).toMatchObject({ created_at: instant });
    expect(await (await call('/__mock/clock')).json()).toMatchObject({ frozen: true });
  });

  const createAt = (name: string) =>
    call(`${API}/collections`, {
      method: 'POST',
      headers: JSON_FULL,
      body: JSON.stringify({ name }),
    }).then(async (r) => ((await r.json()) as { created_at: string }).created_at);

  it('returns to the wall clock on {"real_time":true}, whatever was written in a set future', async () => {
    await call('/__mock/clock', { method: 'POST', body: '{"now":"2099-01-01T00:00:00.000Z"}' });
    expect(await createAt('In the future')).toBe('2099-01-01T00:00:00.000Z');
    const back = await call('/__mock/clock', { method: 'POST', body: '{"real_time":true}' });
    expect(back.status).toBe(200);
    const before = new Date().toISOString();
    const now = await createAt('Back to now');
    expect(now >= before && now <= new Date().toISOString()).toBe(true);
  });

  it('returns to the clock it started with on POST /__mock/reset', async () => {
    await call('/__mock/clock', { method: 'POST', body: '{"now":"2099-01-01T00:00:00.000Z"}' });
    await createAt('In the future');
    expect((await call('/__mock/reset', { method: 'POST' })).status).toBe(204);
    expect(await createAt('After the reset')).toBe(NOW);
  });

  it('is off with control: false, and never reachable under an API prefix', async () => {
    running = await start({ control: false });
    const off = await call('/__mock/reset', { method: 'POST' });
    expect(off.status).toBe(404);
    expect(off.headers.get('content-type')).toBe('application/problem+json');
    expect(await call('/__mock/state').then((r) => r.status)).toBe(404);
    const prefixed = await call(`${API}/__mock/reset`, { method: 'POST', headers: FULL });
    expect(prefixed.status).toBe(404);
    expect(await prefixed.json()).toMatchObject({ code: 'not_found' });
  });

  it('does not serve the control API under an API prefix when enabled either', async () => {
    const prefixed = await call(`${API}/__mock/reset`, { method: 'POST', headers: FULL });
    expect(prefixed.status).toBe(404);
  });
});

describe('request log', () => {
  it('logs the client address, method, path, status, time, operation and the masked key, never the key', async () => {
    await call(`${API}/collections?limit=2`, { headers: FULL });
    await call(`${API}/collections`, {
      headers: { 'x-answers-api-key': 'answers_test_inactive_acme' },
    });
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(
      /^127\.0\.0\.1 GET \/api\/answers\/v1\/collections 200 [\d.]+ms listCollections key=\S+$/,
    );
    expect(lines[0]).not.toContain('limit=2');
    expect(lines[1]).toContain(' 401 ');
    const all = lines.join('\n');
    expect(all).toContain('…acme');
    expect(all).not.toContain('answers_test_full_acme');
    expect(all).not.toContain('answers_test_inactive_acme');
  });

  it('logs nothing when quiet', async () => {
    running = await start({ quiet: true });
    lines = [];
    await call(`${API}/collections`, { headers: FULL });
    expect(lines).toEqual([]);
  });
});

describe('state file', () => {
  it('answers a write once it is in the file, and a new server started from the file sees it', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'answers-mock-'));
    try {
      const file = join(dir, 'state.json');
      const { journal, contents } = await StateJournal.open(file);
      expect(contents).toEqual({ kind: 'missing' });
      await journal.attach(state, contents);
      running = await start({ persistence: journal });
      const [first] = await listNames();
      await call(`${API}/collections/${first!.id}`, { method: 'DELETE', headers: FULL });
      await call(`${API}/collections`, { headers: FULL }); // a GET writes nothing more

      // @note No flush: the 204 was sent only after the change reached the file.
      const saved = await readStateFile(file);
      if (saved.kind !== 'lines') throw new Error(`unexpected ${saved.kind}`);
      expect(saved.snapshot.collections.map((c) => c.id)).not.toContain(first!.id);
      expect(await readdir(dir)).toEqual(['state.json', 'state.json.lock']);
      await journal.close();
      expect(await readdir(dir)).toEqual(['state.json']); // no temporary file, lock released

      mock = await createMock({ initialState: saved.snapshot, now: NOW });
      const second = await start();
      const names = await listNames(second.url);
      expect(names).toHaveLength(5);
      expect(names.map((c) => c.id)).not.toContain(first!.id);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
