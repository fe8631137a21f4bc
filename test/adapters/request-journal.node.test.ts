/**
 * The request journal through the adapters that own a port (issue 50): the Node server and the
 * express router keep every API request an app sends over HTTP, and serve `GET /__mock/requests`
 * under the control API's rules (a foreign Origin is refused; no journal without the control API).
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { afterEach, describe, expect, it } from 'vitest';
import { createMock, DEV_KEYS } from '../../src/index.ts';
import { createAnswersRouter } from '../../src/express/index.ts';
import { startServer, type RunningServer } from '../../src/node/server.ts';
import { KEYS } from '../support/keys.ts';

let running: RunningServer | undefined;
let app: Server | undefined;
afterEach(async () => {
  await running?.close();
  if (app) {
    await new Promise((resolve) => app!.close(resolve));
    app.closeAllConnections();
  }
  running = app = undefined;
});

async function expressBase(control: boolean): Promise<string> {
  const router = express();
  router.use(createAnswersRouter(await createMock(), { control }));
  app = router.listen(0, '127.0.0.1');
  await new Promise((resolve) => app!.once('listening', resolve));
  return `http://127.0.0.1:${(app.address() as AddressInfo).port}`;
}

const adapters = [
  {
    name: 'the Node server',
    start: async () => {
      running = await startServer({ mock: await createMock(), port: 0, quiet: true });
      return running.url;
    },
  },
  { name: 'the express router', start: () => expressBase(true) },
];

describe.each(adapters)('the request journal through $name', ({ start }) => {
  it('keeps what an app sent over HTTP, and serves it to this machine only', async () => {
    const base = await start();
    await fetch(`${base}/api/answers/v1/collections`, {
      headers: { 'x-answers-api-key': KEYS.full },
    });
    await fetch(`${base}/api/answers/v1/search`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEYS.readonly}`, 'content-type': 'application/json' },
      body: JSON.stringify({ query: 'refund' }),
    });
    const answer = await fetch(`${base}/__mock/requests`);
    expect(answer.status).toBe(200);
    const { data } = (await answer.json()) as {
      data: Array<{ operation: string; key: string; status: number; path: string }>;
    };
    expect(data.map((e) => [e.operation, e.key, e.status, e.path])).toEqual([
      ['listCollections', 'full', 200, '/api/answers/v1/collections'],
      ['searchObjects', 'readonly', 200, '/api/answers/v1/search'],
    ]);
    for (const { key } of DEV_KEYS) expect(JSON.stringify(data)).not.toContain(key);
    const foreign = await fetch(`${base}/__mock/requests`, {
      headers: { origin: 'https://evil.example' },
    });
    expect(foreign.status).toBe(403);
  });
});

describe('the request journal without the control API', () => {
  it('is not served', async () => {
    const base = await expressBase(false);
    expect((await fetch(`${base}/__mock/requests`)).status).not.toBe(200);
  });
});
