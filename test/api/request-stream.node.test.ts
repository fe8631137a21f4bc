/**
 * The journal live (issue 50): `GET /__mock/requests/stream`, server-sent events, read here from
 * the pieces the core answers with (the Node adapters write them as they come: test/adapters).
 * What a reader missed, then each request as it is kept; filters; a reset, while connected or
 * between two connections; a slow reader ended, not buffered without end; a reader that goes
 * lets go. And the control API's reads the inspector page shows: keys, latency, failures.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createMock, type MockRequest, type MockResponse } from '../../src/index.ts';
import { KEYS } from '../support/keys.ts';

const mock = await createMock({ now: '2026-11-22T12:00:00.000Z' });
afterEach(async () => {
  await mock.controls.reset();
  mock.controls.clearFailures();
});

function request(
  method: string,
  path: string,
  options: { key?: string; query?: string; headers?: Record<string, string>; body?: unknown } = {},
): MockRequest {
  const headers = new Map<string, string>(Object.entries(options.headers ?? {}));
  if (options.key) headers.set('authorization', `Bearer ${options.key}`);
  if (options.body !== undefined) headers.set('content-type', 'application/json');
  return {
    method,
    path,
    query: new URLSearchParams(options.query ?? ''),
    headers: { get: (name) => headers.get(name) ?? null },
    body:
      options.body === undefined
        ? undefined
        : new TextEncoder().encode(JSON.stringify(options.body)),
  };
}

const control = async (method: string, path: string, options = {}) =>
  (await mock.handle(request(method, `/__mock${path}`, options), { control: true })).response;

const listCollections = (key?: string) =>
  mock.handle(request('GET', '/v1/collections', key ? { key } : {}));

/** The journal's epoch (how many resets it has seen): event ids are `<epoch>-<seq>`. */
const epoch = async () => {
  const events = reader(await control('GET', '/requests/stream'));
  const hello = (await events.next()) as SentEvent;
  await events.stop();
  return (hello.data as { epoch: number }).epoch;
};

interface SentEvent {
  id?: string;
  event?: string;
  data?: unknown;
}

/** A reader of a stream's events, one at a time, as EventSource would parse them. */
function reader(response: MockResponse) {
  expect(response.status).toBe(200);
  expect(response.headers['content-type']).toBe('text/event-stream; charset=utf-8');
  const pieces = response.pieces![Symbol.asyncIterator]();
  let buffer = '';
  return {
    async next(): Promise<SentEvent | 'ended'> {
      for (;;) {
        const end = buffer.indexOf('\n\n');
        if (end >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const fields = Object.fromEntries(
            block
              .split('\n')
              .filter((line) => !line.startsWith(':') && !line.startsWith('retry:'))
              .map((line) => [line.slice(0, line.indexOf(':')), line.slice(line.indexOf(':') + 2)]),
          );
          if (Object.keys(fields).length === 0) continue;
          return {
            ...fields,
            data: fields.data === undefined ? undefined : JSON.parse(fields.data),
          };
        }
        const piece = await pieces.next();
        if (piece.done) return 'ended';
        buffer += piece.value;
      }
    },
    /** Goes, as a client that hangs up: the adapter ends the pieces. */
    stop: () => pieces.return!(),
  };
}

describe('GET /__mock/requests/stream', () => {
  it('says hello, sends what was kept, then each request as it is answered, in order', async () => {
    await listCollections(KEYS.full);
    const e = await epoch();
    const events = reader(await control('GET', '/requests/stream'));
    expect(await events.next()).toEqual({
      event: 'hello',
      data: { size: 10_000, bodies: false, epoch: e },
    });
    const kept = await events.next();
    expect(kept).toMatchObject({ id: `${e}-1`, event: 'request', data: { seq: 1, key: 'full' } });
    await listCollections();
    await listCollections(KEYS.readonly);
    expect(await events.next()).toMatchObject({
      id: `${e}-2`,
      data: { seq: 2, status: 401, code: 'missing_credentials', key: 'none' },
    });
    expect(await events.next()).toMatchObject({ id: `${e}-3`, data: { seq: 3, key: 'readonly' } });
    // Each event is the entry `GET /__mock/requests` holds.
    expect((kept as SentEvent).data).toEqual(mock.controls.requests()[0]);
    await events.stop();
  });

  it('sends only the operation and status asked for', async () => {
    const events = reader(await control('GET', '/requests/stream', { query: 'status=401' }));
    await events.next(); // hello
    await listCollections(KEYS.full);
    await mock.handle(request('GET', '/v1/collections/col_none', { key: KEYS.full }));
    await listCollections();
    expect(await events.next()).toMatchObject({ event: 'request', data: { seq: 3, status: 401 } });
    await events.stop();
  });

  it('tells a reader of a reset while it reads, and numbers from 1 again', async () => {
    const e = await epoch();
    const events = reader(await control('GET', '/requests/stream'));
    await events.next(); // hello
    await listCollections(KEYS.full);
    expect(await events.next()).toMatchObject({ id: `${e}-1` });
    await mock.controls.reset();
    await listCollections(KEYS.full);
    expect(await events.next()).toEqual({ event: 'reset', data: {} });
    expect(await events.next()).toMatchObject({ id: `${e + 1}-1`, data: { seq: 1 } });
    await events.stop();
  });

  it('resumes from Last-Event-ID: only what the reader missed', async () => {
    for (let i = 0; i < 3; i += 1) await listCollections(KEYS.full);
    const e = await epoch();
    const events = reader(
      await control('GET', '/requests/stream', { headers: { 'last-event-id': `${e}-2` } }),
    );
    await events.next(); // hello
    expect(await events.next()).toMatchObject({ id: `${e}-3` });
    await listCollections(KEYS.full);
    expect(await events.next()).toMatchObject({ id: `${e}-4` });
    await events.stop();
  });

  it('tells a reader that resumes across a reset, and sends the journal as it is now', async () => {
    await listCollections(KEYS.full);
    const e = await epoch();
    await mock.controls.reset();
    await listCollections(KEYS.readonly);
    const events = reader(
      await control('GET', '/requests/stream', { headers: { 'last-event-id': `${e}-5` } }),
    );
    await events.next(); // hello
    expect(await events.next()).toEqual({ event: 'reset', data: {} });
    expect(await events.next()).toMatchObject({ id: `${e + 1}-1`, data: { key: 'readonly' } });
    await events.stop();
  });

  it('ends a reader that takes nothing while more than 1,000 events wait', async () => {
    const events = reader(await control('GET', '/requests/stream'));
    for (let i = 0; i < 1_100; i += 1) await listCollections(KEYS.full);
    await events.next(); // hello
    let taken = 0;
    while ((await events.next()) !== 'ended') taken += 1;
    // The events that waited are sent; those past the bound are not held for it.
    expect(taken).toBeGreaterThanOrEqual(990);
    expect(taken).toBeLessThanOrEqual(1_000);
  });

  it('lets go of a reader that goes while it waits for the next request', async () => {
    const events = reader(await control('GET', '/requests/stream'));
    await events.next(); // hello
    const waiting = events.next();
    await events.stop();
    expect(await waiting).toBe('ended');
  });

  it('checks its filters as GET /__mock/requests does', async () => {
    const refused = await control('GET', '/requests/stream', { query: 'operation=nope' });
    expect(refused.status).toBe(400);
    expect(JSON.parse(refused.body!)).toMatchObject({ code: 'invalid_control_request' });
  });
});

describe('what the inspector page reads of the controls', () => {
  it('GET /__mock/keys: every key with its account, permissions, state and role', async () => {
    const body = JSON.parse((await control('GET', '/keys')).body!);
    expect(body.accounts.map((a: { id: string }) => a.id)).toEqual(['acme', 'globex', 'initech']);
    expect(body.keys).toContainEqual(
      expect.objectContaining({
        key: KEYS.readonly,
        account_id: 'acme',
        permissions: ['read', 'search'],
        active: true,
        role: 'readonly',
      }),
    );
    expect(body.keys.find((k: { key: string }) => k.key === KEYS.inactive).role).toBe('inactive');
  });

  it('GET /__mock/latency: the latency set', async () => {
    expect(JSON.parse((await control('GET', '/latency')).body!)).toEqual({ ms: 0 });
    mock.controls.setLatency(25);
    expect(JSON.parse((await control('GET', '/latency')).body!)).toEqual({ ms: 25 });
  });

  it('GET /__mock/failures: what waits, and what each operation can be made to answer', async () => {
    mock.controls.failNext('getCollection', 503, 2);
    mock.controls.failNext('getCollection', 404);
    const body = JSON.parse((await control('GET', '/failures')).body!);
    expect(body.queued).toEqual([
      { operation_id: 'getCollection', status: 503, times: 2 },
      { operation_id: 'getCollection', status: 404, times: 1 },
    ]);
    expect(body.forcible.getCollection).toEqual([400, 401, 404, 429, 500, 502, 503, 504]);
    expect(body.forcible.listCollections).not.toContain(404);
    await mock.handle(request('GET', '/v1/collections/col_x', { key: KEYS.full }));
    expect(JSON.parse((await control('GET', '/failures')).body!).queued[0].times).toBe(1);
  });
});
