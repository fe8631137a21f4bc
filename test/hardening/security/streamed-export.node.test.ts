/**
 * Large exports streamed (issue "Safe on a developer's machine", part 3): `GET /__mock/state`
 * built the whole snapshot as one string, which at 1,000,000 objects passes V8's longest string
 * (and blocked the event loop while it was built). It is now written in pieces from the records
 * as they were when the export started: the same JSON document, byte for byte, through the Node
 * server, the express router and the msw handlers, and `PUT /__mock/state` takes it back.
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { setupServer } from 'msw/node';
import { describe, expect, it, vi } from 'vitest';
import type { MockResponse } from '../../../src/core/http.ts';
import { mergeByCreation } from '../../../src/core/snapshot/snapshot-stream.ts';
import { createAnswersRouter } from '../../../src/express/index.ts';
import { createHandlers, createMock, emptyState, type AnswersMock } from '../../../src/index.ts';
import { generateState } from '../../../src/seed/generate-state.ts';
import { send } from '../../support/in-process.ts';
import { serversClosedAfterEach } from './servers.ts';

const { start } = serversClosedAfterEach();

/** `GET /__mock/state` in-process, through the same `mock.handle` every adapter calls. */
async function exportOf(mock: AnswersMock): Promise<MockResponse> {
  const { response } = await mock.handle(
    { method: 'GET', path: '/__mock/state', query: new URLSearchParams(), headers: new Headers() },
    { control: true },
  );
  expect(response.status).toBe(200);
  return response;
}

async function piecesOf(response: MockResponse): Promise<string[]> {
  expect(response.body).toBeUndefined();
  const pieces: string[] = [];
  for await (const piece of response.pieces!) pieces.push(piece);
  return pieces;
}

/** What the export was before it was streamed: the whole snapshot as one string. */
const whole = (mock: AnswersMock) => JSON.stringify(mock.controls.export());

/** A mock whose lists were changed every way the API can: creates, updates, deletes. */
async function changedMock(): Promise<AnswersMock> {
  const mock = await createMock({ initialState: generateState({ seed: 7, objects: 600 }) });
  const { json: collection } = await send(mock, {
    method: 'POST',
    path: '/collections',
    body: { name: 'ünïcödé 🦊', metadata: { note: '\u2028 and 𝄞' } },
  });
  const path = `/collections/${collection.id}/objects`;
  const made = [];
  for (let i = 0; i < 5; i++)
    made.push(
      await send(mock, { method: 'POST', path, body: { content: { i, s: '😀'.repeat(i) } } }),
    );
  await send(mock, {
    method: 'PATCH',
    path: `${path}/${made[1]!.json.id}`,
    body: { content: { x: 1 } },
  });
  await send(mock, { method: 'DELETE', path: `${path}/${made[2]!.json.id}` });
  const { json: list } = await send(mock, {
    method: 'GET',
    path: '/collections',
    query: { limit: '2' },
  });
  await send(mock, { method: 'DELETE', path: `/collections/${list.data[0].id}` });
  return mock;
}

/** A loaded state whose records are not in creation order in the file. */
function shuffledState() {
  const state = generateState({ seed: 3, objects: 300 });
  state.objects.reverse();
  state.collections.reverse();
  return state;
}

describe('the state export', () => {
  it.each([
    ['the default seed', () => createMock()],
    ['no data', () => createMock({ initialState: emptyState() })],
    [
      '3,000 generated objects',
      () => createMock({ initialState: generateState({ objects: 3_000 }) }),
    ],
    ['records loaded out of order', () => createMock({ initialState: shuffledState() })],
    ['data changed by the API', changedMock],
  ])('is the same JSON as the whole snapshot, byte for byte: %s', async (_, make) => {
    const mock = await make();
    expect((await piecesOf(await exportOf(mock))).join('')).toBe(whole(mock));
  });

  it('never holds the document as one string: pieces of at most 256 KiB and a record', async () => {
    const mock = await createMock({ initialState: generateState({ objects: 5_000 }) });
    const document = whole(mock);
    expect(document.length).toBeGreaterThan(1_000_000);
    const stringify = vi.spyOn(JSON, 'stringify');
    const pieces = await piecesOf(await exportOf(mock));
    const longest = Math.max(...stringify.mock.results.map((r) => String(r.value).length));
    expect(longest).toBeLessThan(10_000);
    expect(pieces.length).toBeGreaterThan(4);
    expect(Math.max(...pieces.map((p) => p.length))).toBeLessThan(256 * 1024 + 10_000);
    expect(pieces.join('')).toBe(document);
  });

  it('lets the event loop run between pieces', async () => {
    const mock = await createMock({ initialState: generateState({ objects: 3_000 }) });
    const ran: number[] = [];
    let piece = 0;
    for await (const _ of (await exportOf(mock)).pieces!) {
      piece += 1;
      // Queued before the next piece is asked for: it runs first only if the export yields.
      setImmediate(() => ran.push(piece));
    }
    expect(piece).toBeGreaterThan(2);
    expect(ran.slice(0, piece - 1)).toEqual(Array.from({ length: piece - 1 }, (_, i) => i + 1));
  });

  it('is the state as it was when the export started, whatever is written meanwhile', async () => {
    const mock = await changedMock();
    const before = whole(mock);
    const pieces = (await exportOf(mock)).pieces![Symbol.asyncIterator]();
    const first = await pieces.next();
    const { json: collections } = await send(mock, { method: 'GET', path: '/collections' });
    const id = collections.data[0].id;
    await send(mock, { method: 'POST', path: `/collections/${id}/objects`, body: { content: {} } });
    await send(mock, { method: 'PATCH', path: `/collections/${id}`, body: { name: 'renamed' } });
    await send(mock, { method: 'DELETE', path: `/collections/${collections.data[1].id}` });
    await mock.controls.load(emptyState());
    let text = first.value as string;
    for (let next = await pieces.next(); !next.done; next = await pieces.next()) text += next.value;
    expect(text).toBe(before);
    expect(whole(mock)).not.toBe(before);
  });
});

describe('the state export over each adapter', () => {
  const state = () => generateState({ seed: 11, objects: 2_000 });

  it('the Node server streams it and PUT /__mock/state takes it back', async () => {
    const mock = await createMock({ initialState: state() });
    const expected = whole(mock);
    const running = await start({ mock });
    const response = await fetch(`${running.url}/__mock/state`);
    expect(response.headers.get('content-type')).toBe('application/json');
    const text = await response.text();
    expect(text).toBe(expected);
    await mock.controls.load(emptyState());
    const put = await fetch(`${running.url}/__mock/state`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: text,
    });
    expect(put.status).toBe(204);
    expect(whole(mock)).toBe(expected);
  });

  it('the express router streams it', async () => {
    const mock = await createMock({ initialState: state() });
    const app = express();
    app.use(createAnswersRouter(mock));
    const server: Server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const response = await fetch(`http://127.0.0.1:${port}/__mock/state`);
      expect(response.status).toBe(200);
      expect(await response.text()).toBe(whole(mock));
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('the msw handlers answer it with a stream body', async () => {
    const mock = await createMock({ initialState: state() });
    const server = setupServer(...createHandlers(mock, { baseUrl: 'http://answers.test' }));
    server.listen({ onUnhandledRequest: 'error' });
    try {
      const response = await fetch('http://answers.test/__mock/state');
      expect(response.status).toBe(200);
      const text = await response.text();
      expect(text).toBe(whole(mock));
      await mock.controls.load(emptyState());
      const put = await fetch('http://answers.test/__mock/state', {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: text,
      });
      expect(put.status).toBe(204);
    } finally {
      server.close();
    }
  });
});

describe('mergeByCreation', () => {
  const at = (second: number, id: string) => ({
    created_at: `2026-01-01T00:00:${String(second).padStart(2, '0')}.000Z`,
    id,
  });
  it.each([
    { lists: [], want: '' },
    { lists: [[], []], want: '' },
    { lists: [[at(1, 'a'), at(3, 'c')]], want: 'ac' },
    { lists: [[at(2, 'b')], [at(1, 'a'), at(3, 'c')], []], want: 'abc' },
    {
      lists: [
        [at(1, 'b'), at(2, 'd')],
        [at(1, 'a'), at(2, 'c')],
      ],
      want: 'abcd',
    },
    {
      lists: [[at(5, 'e')], [at(4, 'd')], [at(3, 'c')], [at(2, 'b')], [at(1, 'a'), at(6, 'f')]],
      want: 'abcdef',
    },
  ])('merges lists in creation order into creation order: $want', ({ lists, want }) => {
    expect([...mergeByCreation(lists)].map((item) => item.id).join('')).toBe(want);
  });
});
