/**
 * DNS rebinding is closed in every adapter (issue 34, item 5). A page on `attacker.example` whose
 * name is re-pointed at 127.0.0.1 sends `Host: attacker.example` (and `Origin:
 * http://attacker.example` on writes). Reproduced before the fix: the Node server with
 * `allowedHosts: ['*']` (`--allowed-hosts '*'`, which printed nothing) exported every key and reset
 * the data for such a page; the express router in a plain express app checked no Host at all; an
 * Origin equal to a foreign Host was trusted even where the control token was required.
 */
import { spawn } from 'node:child_process';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { describe, expect, it } from 'vitest';
import { createAnswersRouter, type AnswersRouterOptions } from '../../../src/express/index.ts';
import { createMock } from '../../../src/index.ts';
import { rawRequest } from '../raw-http.ts';
import { API, FULL, ROOT, serversClosedAfterEach } from './servers.ts';
import { mockBin } from '../../support/bins.ts';

const { start, started } = serversClosedAfterEach();

const MARK = '2031-01-01T00:00:00.000Z';

/** Starts the express router in a plain express app on loopback; closed after the test. */
async function startExpress(options: AnswersRouterOptions = {}) {
  const app = express();
  app.use(createAnswersRouter(await createMock(), options));
  const server: Server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  started.push({
    url,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  });
  return { url };
}

/** The `Host` and `Origin` a page on `name` sends to the mock at `url`. */
function pageOn(name: string, url: string): [string, string][] {
  const { port } = new URL(url);
  return [
    ['Host', `${name}:${port}`],
    ['Origin', `http://${name}:${port}`],
  ];
}

/** What a rebinding page on `attacker.example` does, with `extra` headers. */
const attack = {
  /** Reads every key: a same-origin GET carries no Origin, only the page's Host. */
  exportKeys: (url: string, extra: [string, string][] = []) =>
    rawRequest(url, {
      method: 'GET',
      target: '/__mock/state',
      headers: [['Host', `attacker.example:${new URL(url).port}`], ...extra],
    }),
  reset: (url: string, extra: [string, string][] = []) =>
    rawRequest(url, {
      method: 'POST',
      target: '/__mock/reset',
      headers: [...pageOn('attacker.example', url), ['Content-Type', 'application/json'], ...extra],
      body: '{}',
    }),
  readApi: (url: string) =>
    rawRequest(url, {
      method: 'GET',
      target: `${API}/collections`,
      headers: [...pageOn('attacker.example', url), ['Authorization', `Bearer ${FULL}`]],
    }),
};

/** Moves the mock's clock to MARK over loopback, so that a reset shows (it puts the clock back). */
async function mark(url: string, token?: string) {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (token) headers['x-answers-mock-token'] = token;
  const set = await fetch(`${url}/__mock/clock`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ now: MARK }),
  });
  expect(set.status).toBe(200);
  return async () => {
    const now = await fetch(`${url}/__mock/clock`, { headers });
    return ((await now.json()) as { now: string }).now;
  };
}

const ADAPTERS = [
  ["the Node server with allowedHosts ['*']", () => start({ allowedHosts: ['*'] })],
  ['the express router in a plain express app', () => startExpress()],
  ["the express router with allowedHosts ['*']", () => startExpress({ allowedHosts: ['*'] })],
] as const;

describe.each(ADAPTERS)('%s', (_name, startAdapter) => {
  it('refuses a rebinding page the export of every key with 403', async () => {
    const { url } = await startAdapter();
    const response = await attack.exportKeys(url);
    expect(response.status).toBe(403);
    expect(JSON.parse(response.text)).toMatchObject({ code: 'forbidden_host' });
    expect(response.text).not.toContain('answers_test_');
  });

  it('refuses a rebinding page a reset with 403 and changes nothing', async () => {
    const { url } = await startAdapter();
    const clock = await mark(url);
    const response = await attack.reset(url);
    expect(response.status).toBe(403);
    expect(await clock()).toBe(MARK);
  });

  it('still answers the control API on a loopback name', async () => {
    const { url } = await startAdapter();
    const clock = await mark(url);
    const response = await rawRequest(url, {
      method: 'POST',
      target: '/__mock/reset',
      headers: [...pageOn('localhost', url), ['Content-Type', 'application/json']],
      body: '{}',
    });
    expect(response.status).toBe(204);
    expect(await clock()).not.toBe(MARK);
  });
});

describe('the API through a rebinding page', () => {
  it('is refused by the express router by default', async () => {
    const { url } = await startExpress();
    const response = await attack.readApi(url);
    expect(response.status).toBe(403);
    expect(response.text).not.toContain('"data"');
  });

  it.each([
    ['the Node server', () => start({ allowedHosts: ['*'] })],
    ['the express router', () => startExpress({ allowedHosts: ['*'] })],
  ])(
    "is answered by %s with allowedHosts ['*'], which opens the API alone (open to every page through CORS anyway)",
    async (_name, startAdapter) => {
      const { url } = await startAdapter();
      expect((await attack.readApi(url)).status).toBe(200);
    },
  );
});

describe('names given by name', () => {
  it.each([
    ['the Node server', () => start({ allowedHosts: ['mock.test', '*'] })],
    ['the express router', () => startExpress({ allowedHosts: ['mock.test'] })],
  ])('%s answers their pages on the API and the control API', async (_name, startAdapter) => {
    const { url } = await startAdapter();
    const clock = await mark(url);
    const api = await rawRequest(url, {
      method: 'GET',
      target: `${API}/collections`,
      headers: [...pageOn('mock.test', url), ['Authorization', `Bearer ${FULL}`]],
    });
    expect(api.status).toBe(200);
    const reset = await rawRequest(url, {
      method: 'POST',
      target: '/__mock/reset',
      headers: [...pageOn('mock.test', url), ['Content-Type', 'application/json']],
      body: '{}',
    });
    expect(reset.status).toBe(204);
    expect(await clock()).not.toBe(MARK);
  });
});

describe("the Node server with allowedHosts ['*'] and a control token", () => {
  const TOKEN = 'a-control-token-for-this-test-only';

  it('answers a foreign name on the control API only with the token', async () => {
    const { url } = await start({ allowedHosts: ['*'], controlToken: TOKEN });
    const without = await attack.exportKeys(url);
    expect(without.status).toBe(401);
    expect(without.text).not.toContain('answers_test_');
    const withToken = await attack.exportKeys(url, [['X-Answers-Mock-Token', TOKEN]]);
    expect(withToken.status).toBe(200);
  });

  it('does not take an Origin equal to a foreign Host for a page of this machine', async () => {
    const { url } = await start({ allowedHosts: ['*'], controlToken: TOKEN });
    const clock = await mark(url, TOKEN);
    const response = await attack.reset(url, [['X-Answers-Mock-Token', TOKEN]]);
    expect(response.status).toBe(403);
    expect(JSON.parse(response.text)).toMatchObject({ code: 'foreign_origin' });
    expect(await clock()).toBe(MARK);
  });
});

describe("answers-mock --allowed-hosts '*'", () => {
  it('warns at start, and refuses a rebinding page the control API', async () => {
    const child = spawn(
      process.execPath,
      mockBin('--allowed-hosts', '*', '--port', '0', '--quiet'),
      { cwd: ROOT },
    );
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
      expect(err).toMatch(/warning: --allowed-hosts \* answers the API on any host name/);
      expect(err).toMatch(/control API still answers only loopback names/);
      const url = `http://127.0.0.1:${port}`;
      const response = await attack.exportKeys(url);
      expect(response.status).toBe(403);
      expect(response.text).not.toContain('answers_test_');
      expect((await fetch(`${url}/__mock/clock`)).status).toBe(200);
    } finally {
      child.kill('SIGTERM');
    }
  }, 30_000);
});
