/**
 * The request journal through the adapters that own a port (issue 50): the Node server and the
 * express router keep every API request an app sends over HTTP, and serve `GET /__mock/requests`,
 * its live stream and the inspector page under the control API's rules (a foreign Origin is
 * refused; none of them without the control API). Chromium drives the page in test/e2e.
 */
import { createServer as createHttpServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { afterEach, describe, expect, it } from 'vitest';
import { createMock, DEV_KEYS } from '../../src/index.ts';
import { createAnswersRouter } from '../../src/express/index.ts';
import { sendResponse } from '../../src/node/node-io.ts';
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

async function expressBase(control: boolean, mount = ''): Promise<string> {
  const router = express();
  router.use(mount || '/', createAnswersRouter(await createMock(), { control }));
  app = router.listen(0, '127.0.0.1');
  await new Promise((resolve) => app!.once('listening', resolve));
  return `http://127.0.0.1:${(app.address() as AddressInfo).port}${mount}`;
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
  { name: 'the express router mounted at /dev', start: () => expressBase(true, '/dev') },
];

/** Reads server-sent events from a fetch body until `until` holds for one; then hangs up. */
async function eventsUntil(
  response: Response,
  until: (event: { event?: string; data?: any }) => boolean,
  hangUp: AbortController,
) {
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  const seen: Array<{ event?: string; data?: any }> = [];
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += value;
    let end;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const fields = Object.fromEntries(
        buffer
          .slice(0, end)
          .split('\n')
          .map((line) => [
            line.slice(0, line.indexOf(':')),
            line.slice(line.indexOf(':') + 1).trim(),
          ]),
      );
      buffer = buffer.slice(end + 2);
      if (fields.event === undefined) continue; // `retry:`, a heartbeat
      const event = {
        event: fields.event,
        data: fields.data ? JSON.parse(fields.data) : undefined,
      };
      seen.push(event);
      if (until(event)) {
        hangUp.abort();
        return seen;
      }
    }
  }
  return seen;
}

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

describe.each(adapters)('the live journal and the inspector page through $name', ({ start }) => {
  it('streams each request as it is answered, and answers on after its reader hangs up', async () => {
    const base = await start();
    const hangUp = new AbortController();
    const stream = await fetch(`${base}/__mock/requests/stream`, { signal: hangUp.signal });
    expect(stream.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    const reading = eventsUntil(stream, (e) => e.event === 'request', hangUp);
    await fetch(`${base}/api/answers/v1/collections`, {
      headers: { 'x-answers-api-key': KEYS.full },
    });
    const events = await reading;
    expect(events.map((e) => e.event)).toEqual(['hello', 'request']);
    expect(events[1]!.data).toMatchObject({
      operation: 'listCollections',
      key: 'full',
      status: 200,
    });
    // The server still answers, and closes (afterEach) with nobody left reading.
    expect((await fetch(`${base}/__mock/requests`)).status).toBe(200);
  });

  it('serves the page and its two files, offline by its Content-Security-Policy', async () => {
    const base = await start();
    const page = await fetch(`${base}/__mock/ui`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('content-security-policy')).toContain("default-src 'none'");
    const html = await page.text();
    expect(html).toContain('src="ui/inspector.js"');
    expect(html).not.toMatch(/https?:\/\//);
    for (const [file, type] of [
      ['inspector.js', 'text/javascript; charset=utf-8'],
      ['inspector.css', 'text/css; charset=utf-8'],
    ]) {
      const asset = await fetch(`${base}/__mock/ui/${file}`);
      expect([asset.status, asset.headers.get('content-type')]).toEqual([200, type]);
      expect(await asset.text()).not.toMatch(/https?:\/\/(?!www\.w3\.org)/);
    }
    const slash = await fetch(`${base}/__mock/ui/`, { redirect: 'manual' });
    expect([slash.status, slash.headers.get('location')]).toEqual([308, '/__mock/ui']);
  });

  it("refuses a foreign page, an unknown file and a write with the control API's problems", async () => {
    const base = await start();
    const foreign = await fetch(`${base}/__mock/ui`, {
      headers: { origin: 'https://evil.example' },
    });
    expect(foreign.status).toBe(403);
    expect(await foreign.json()).toMatchObject({ code: 'foreign_origin' });
    const unknown = await fetch(`${base}/__mock/ui/secrets.json`);
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ code: 'not_found' });
    const write = await fetch(`${base}/__mock/ui`, { method: 'POST' });
    expect([write.status, write.headers.get('allow')]).toEqual([405, 'GET, HEAD']);
  });
});

describe('a stream whose reader hangs up', () => {
  it('is ended by the Node writer while it waits for its next piece', async () => {
    let ended: () => void;
    const endedNow = new Promise<void>((resolve) => (ended = resolve));
    // Pieces that give one and then wait for ever, as the journal's stream waits for a request.
    const pieces: AsyncIterable<string> = {
      [Symbol.asyncIterator]: () => {
        let first = true;
        return {
          next: () => {
            if (!first) return new Promise<IteratorResult<string>>(() => undefined);
            first = false;
            return Promise.resolve({ value: 'data: one\n\n', done: false });
          },
          return: () => {
            ended();
            return Promise.resolve({ value: undefined, done: true });
          },
        };
      },
    };
    let delivery: Promise<string> | undefined;
    app = createHttpServer((_req, res) => {
      delivery = sendResponse(res, { status: 200, headers: {}, pieces });
    }).listen(0, '127.0.0.1');
    await new Promise((resolve) => app!.once('listening', resolve));
    const hangUp = new AbortController();
    const response = await fetch(`http://127.0.0.1:${(app.address() as AddressInfo).port}/`, {
      signal: hangUp.signal,
    });
    const reader = response.body!.getReader();
    await reader.read();
    hangUp.abort();
    await endedNow;
    expect(await delivery).toBe('disconnected');
  });
});

describe('the request journal without the control API', () => {
  it('is not served, nor its stream, nor the inspector page', async () => {
    const base = await expressBase(false);
    for (const path of ['/__mock/requests', '/__mock/requests/stream', '/__mock/ui'])
      expect((await fetch(`${base}${path}`)).status).toBe(404);
    running = await startServer({ mock: await createMock(), port: 0, quiet: true, control: false });
    for (const path of ['/__mock/requests', '/__mock/requests/stream', '/__mock/ui'])
      expect((await fetch(`${running.url}${path}`)).status).toBe(404);
  });
});
