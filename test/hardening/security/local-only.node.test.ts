/**
 * Only local pages and local names (issue "Safe on a developer's machine", part 1). Reproduced
 * before the fix: a page on `http://evil.example` wiped the data with a `text/plain` POST (no
 * preflight), a DNS-rebinding page read `GET /__mock/state` through a foreign `Host`, a duplicate
 * `Host` was accepted, and `--host 0.0.0.0` started without a word.
 */
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { rawRequest } from '../raw-http.ts';
import { API, FULL, ROOT, serversClosedAfterEach } from './servers.ts';
import { mockBin } from '../../support/bins.ts';

const { start } = serversClosedAfterEach();

const listed = async (url: string) =>
  (
    (await (
      await fetch(`${url}${API}/collections?limit=100`, {
        headers: { authorization: `Bearer ${FULL}` },
      })
    ).json()) as { data: unknown[] }
  ).data.length;

async function deleteOne(url: string) {
  const list = await fetch(`${url}${API}/collections?limit=1`, {
    headers: { authorization: `Bearer ${FULL}` },
  });
  const id = ((await list.json()) as { data: Array<{ id: string }> }).data[0]!.id;
  await fetch(`${url}${API}/collections/${id}`, {
    method: 'DELETE',
    headers: { authorization: `Bearer ${FULL}` },
  });
}

describe('the control API answers pages of this machine only', () => {
  it.each([
    ['text/plain', 'http://evil.example'],
    ['application/json', 'http://evil.example'],
    ['application/json', 'null'],
    ['application/json', 'http://localhost.evil.example:4010'],
  ])('refuses a %s reset from Origin %s with 403 and changes nothing', async (type, origin) => {
    const running = await start();
    await deleteOne(running.url);
    const before = await listed(running.url);
    const response = await fetch(`${running.url}/__mock/reset`, {
      method: 'POST',
      headers: { origin, 'content-type': type },
      body: '{}',
    });
    expect(response.status).toBe(403);
    expect(await response.json()).toMatchObject({ code: 'foreign_origin' });
    expect(await listed(running.url)).toBe(before);
  });

  it('needs a JSON content type on every control write with a body, so a browser must preflight it', async () => {
    const running = await start();
    for (const [method, path] of [
      ['POST', '/__mock/reset'],
      ['PUT', '/__mock/latency'],
      ['POST', '/__mock/clock'],
      ['POST', '/__mock/failures'],
      ['DELETE', '/__mock/failures'],
      ['PUT', '/__mock/state'],
    ] as const) {
      const response = await fetch(`${running.url}${path}`, {
        method,
        headers: { origin: 'http://localhost:5173', 'content-type': 'text/plain' },
        body: '{}',
      });
      expect(response.status, `${method} ${path}`).toBe(415);
      expect(await response.json()).toMatchObject({ code: 'control_content_type' });
    }
  });

  it('takes a control write that has no body without a content type, and still checks its Origin', async () => {
    const running = await start();
    await deleteOne(running.url);
    const before = await listed(running.url);
    const foreign = await fetch(`${running.url}/__mock/reset`, {
      method: 'POST',
      headers: { origin: 'http://evil.example' },
    });
    expect(foreign.status).toBe(403);
    expect(await listed(running.url)).toBe(before);
    for (const [method, path] of [
      ['DELETE', '/__mock/failures'],
      ['POST', '/__mock/reset'],
    ] as const) {
      const response = await fetch(`${running.url}${path}`, { method });
      expect(response.status, `${method} ${path}`).toBe(204);
    }
    expect(await listed(running.url)).toBe(before + 1);
    // A body still needs its JSON type, even an empty object.
    const typed = await fetch(`${running.url}/__mock/reset`, { method: 'POST', body: '{}' });
    expect(typed.status).toBe(415);
  });

  it('serves a local page that sends JSON', async () => {
    const running = await start();
    await deleteOne(running.url);
    const before = await listed(running.url);
    const response = await fetch(`${running.url}/__mock/reset`, {
      method: 'POST',
      headers: { origin: 'http://127.0.0.1:5173', 'content-type': 'application/json' },
    });
    expect(response.status).toBe(204);
    expect(await listed(running.url)).toBe(before + 1);
  });
});

describe('the Node server answers local names only', () => {
  it.each([
    '/__mock/state',
    '/__mock/ui',
    '/__mock/requests/stream',
    `${API}/collections`,
    '/docs',
    '/openapi.yaml',
    '/',
  ])('refuses a foreign Host (DNS rebinding) on %s with 403', async (target) => {
    const running = await start();
    const response = await rawRequest(running.url, {
      method: 'GET',
      target,
      headers: [
        ['Host', 'rebind.evil.example:4010'],
        ['Authorization', `Bearer ${FULL}`],
      ],
    });
    expect(response.status).toBe(403);
    expect(JSON.parse(response.text)).toMatchObject({ code: 'forbidden_host' });
    expect(response.text).not.toContain('answers_test_');
  });

  it.each(['localhost:4010', '127.0.0.1', '[::1]:4010', 'app.localhost'])(
    'answers the loopback name %s',
    async (host) => {
      const running = await start();
      const response = await rawRequest(running.url, {
        method: 'GET',
        target: '/__mock/clock',
        headers: [['Host', host]],
      });
      expect(response.status).toBe(200);
    },
  );

  it('answers the names given with allowedHosts', async () => {
    const running = await start({ allowedHosts: ['mock.test'] });
    const ok = await rawRequest(running.url, {
      method: 'GET',
      target: '/__mock/clock',
      headers: [['Host', 'mock.test:4010']],
    });
    expect(ok.status).toBe(200);
  });

  it('refuses a request with two Host headers with 400', async () => {
    const running = await start();
    const response = await rawRequest(running.url, {
      method: 'GET',
      target: '/__mock/clock',
      headers: [
        ['Host', 'localhost'],
        ['Host', 'evil.example'],
      ],
    });
    expect(response.status).toBe(400);
  });

  it('answers HEAD on /docs like GET, without a body', async () => {
    const running = await start();
    const response = await rawRequest(running.url, { method: 'HEAD', target: '/docs' });
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toMatch(/text\/html/);
    expect(response.body.length).toBe(0);
  });
});

describe('answers-mock beyond loopback', () => {
  it('warns, and guards the control API with the token it prints', async () => {
    const child = spawn(process.execPath, mockBin('--host', '0.0.0.0', '--port', '0', '--quiet'), {
      cwd: ROOT,
    });
    try {
      let out = '';
      let err = '';
      child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
      const port = await new Promise<string>((resolve, reject) => {
        child.stdout.on('data', (chunk: Buffer) => {
          out += chunk.toString();
          const match = /listening on http:\/\/[^:]+:(\d+)/.exec(out);
          if (match) resolve(match[1]!);
        });
        child.once('exit', (code) => reject(new Error(`exited ${code}: ${err}`)));
      });
      expect(err).toMatch(/warning: listening on 0\.0\.0\.0/);
      const token = /X-Answers-Mock-Token: (\S+)/.exec(err)?.[1];
      expect(token).toMatch(/^[\w-]{32}$/);
      // Connected over loopback, as every test here: the token is what guards it.
      const url = `http://127.0.0.1:${port}`;
      const without = await fetch(`${url}/__mock/state`);
      expect(without.status).toBe(401);
      expect(await without.json()).toMatchObject({ code: 'control_token_required' });
      const withToken = await fetch(`${url}/__mock/state`, {
        headers: { 'x-answers-mock-token': token! },
      });
      expect(withToken.status).toBe(200);
      // The API itself keeps its own authentication.
      expect((await fetch(`${url}${API}/collections`)).status).toBe(401);
      // The inspector's address carries the token in its fragment (never sent, never logged);
      // the page holds no data, and what it reads needs the token.
      expect(out).toContain(`/__mock/ui#token=${token}  (`);
      expect((await fetch(`${url}/__mock/ui`)).status).toBe(200);
      const stream = await fetch(`${url}/__mock/requests/stream`);
      expect(stream.status).toBe(401);
    } finally {
      child.kill('SIGTERM');
    }
  }, 30_000);

  it.each([[['--state-file', ''], /--state-file.*must name a file/]])(
    'refuses %j with exit 2',
    async (args, message) => {
      const child = spawn(process.execPath, mockBin(...args), {
        cwd: ROOT,
      });
      let err = '';
      child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
      const code = await new Promise((resolve) => child.once('exit', resolve));
      expect(code).toBe(2);
      expect(err).toMatch(message);
    },
    30_000,
  );
});
