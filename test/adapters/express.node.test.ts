import { readFile } from 'node:fs/promises';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createMock } from '../../src/index.ts';
import type { Snapshot } from '../../src/core/snapshot/snapshot.ts';
import { createAnswersRouter } from '../../src/express/index.ts';

const fixture = JSON.parse(
  await readFile(new URL('../../fixtures/default-state.json', import.meta.url), 'utf8'),
) as Snapshot;
const FULL = { authorization: 'Bearer answers_test_full_acme' };

let server: Server;
let base: string;

beforeEach(async () => {
  const mock = await createMock({ initialState: fixture, now: '2026-11-22T00:00:00.000Z' });
  const app = express();
  app.use(createAnswersRouter(mock));
  app.post('/login', express.json(), (req, res) => {
    res.json({ route: 'app', body: req.body as unknown });
  });
  app.get('/health', (_req, res) => {
    res.send('app ok');
  });
  server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterEach(async () => {
  await new Promise((resolve) => server.close(resolve));
  server.closeAllConnections();
});

describe('createAnswersRouter', () => {
  it('serves the API', async () => {
    const response = await fetch(`${base}/api/answers/v1/collections`, { headers: FULL });
    expect(response.status).toBe(200);
    expect(((await response.json()) as { data: unknown[] }).data).toHaveLength(6);
  });

  it('creates a collection from the raw JSON body', async () => {
    const response = await fetch(`${base}/v1/collections`, {
      method: 'POST',
      headers: { ...FULL, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'From express' }),
    });
    expect(response.status).toBe(201);
    expect(response.headers.get('location')).toMatch(/^\/v1\/collections\/col_/);
  });

  it('answers API errors itself (401, 405)', async () => {
    expect((await fetch(`${base}/v1/collections`)).status).toBe(401);
    expect((await fetch(`${base}/v1/collections`, { method: 'PUT', headers: FULL })).status).toBe(
      405,
    );
  });

  it('serves the control API', async () => {
    expect(
      (
        await fetch(`${base}/__mock/reset`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
        })
      ).status,
    ).toBe(204);
  });

  it("falls through to the app's own routes, bodies intact", async () => {
    const health = await fetch(`${base}/health`);
    expect(await health.text()).toBe('app ok');
    const login = await fetch(`${base}/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ user: 'ada' }),
    });
    expect(await login.json()).toEqual({ route: 'app', body: { user: 'ada' } });
  });

  it('lets /__mock fall through when control is off', async () => {
    const mock = await createMock({ initialState: fixture });
    const app = express();
    app.use(createAnswersRouter(mock, { control: false }));
    app.use((_req, res) => {
      res.status(404).send('app 404');
    });
    const other = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => other.once('listening', resolve));
    try {
      const url = `http://127.0.0.1:${(other.address() as AddressInfo).port}`;
      const response = await fetch(`${url}/__mock/reset`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
      });
      expect(await response.text()).toBe('app 404');
    } finally {
      other.closeAllConnections();
      await new Promise((resolve) => other.close(resolve));
    }
  });
});
