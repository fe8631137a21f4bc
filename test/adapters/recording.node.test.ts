/**
 * `setupAnswersServer({ record })` records the API exchanges a test file's tests have through
 * msw, as a sequence per test (named by the test), with keys by role and never by value; control
 * requests are not recorded, and two servers' recordings never mix.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createMock } from '../../src/index.ts';
import { DEV_KEYS, emptyState, setupAnswersServer } from '../../src/node/index.ts';
import type { Recording } from '../../src/openapi/recording.ts';
import { KEYS } from '../support/keys.ts';

const BASE = 'http://answers.test/api/answers/v1';
const folder = await mkdtemp(join(tmpdir(), 'recording-'));
const path = join(folder, 'nested', 'data.recording.json');
const setup = await setupAnswersServer({
  initialState: emptyState(),
  baseUrl: 'http://answers.test',
  record: { path, testName: () => expect.getState().currentTestName },
});
const { server, mock } = setup;
const recording = setup.recording!;

const call = (key: string | null, method: string, route: string, body?: unknown) =>
  fetch(`${BASE}${route}`, {
    method,
    headers: {
      ...(key === null ? {} : { authorization: `Bearer ${key}` }),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
beforeEach(() => mock.controls.reset());
afterAll(async () => {
  server.close();
  await rm(folder, { recursive: true, force: true });
});

describe('a recording of a test file', () => {
  it('creates a collection and lists it', async () => {
    const created = await call(KEYS.full, 'POST', '/collections', { name: 'Recipes' });
    expect(created.status).toBe(201);
    await call(KEYS.full, 'GET', '/collections?limit=5');
  });

  it('is refused with a read-only key, an inactive key, another account and no key', async () => {
    await call(KEYS.readonly, 'POST', '/collections', { name: 'Nope', note: KEYS.full });
    await call(KEYS.inactive, 'GET', '/collections');
    await call(KEYS.globex, 'GET', '/collections');
    await call(null, 'GET', '/collections');
    await call('answers_test_made_up_key', 'GET', '/collections');
  });

  it('holds each test as a sequence, keys by role, and is written to its file', async () => {
    recording.write();
    const text = await readFile(path, 'utf8');
    const written = JSON.parse(text) as Recording;
    expect(written).toEqual(recording.current());
    expect(written.format).toBe('answers-recording/1');
    const [first, second] = written.sequences;
    expect(first!.name).toContain('creates a collection and lists it');
    expect(first!.exchanges.map((e) => [e.operation, e.method, e.status, e.key])).toEqual([
      ['createCollection', 'POST', 201, 'full'],
      ['listCollections', 'GET', 200, 'full'],
    ]);
    expect(first!.exchanges[0]!.body).toEqual({ name: 'Recipes' });
    expect(first!.exchanges[0]!.response).toMatchObject({ name: 'Recipes' });
    expect(first!.exchanges[1]!.query).toBe('limit=5');
    expect(second!.name).toContain('is refused with a read-only key');
    expect(second!.exchanges.map((e) => [e.key, e.status])).toEqual([
      ['readonly', 401],
      ['inactive', 401],
      ['otherAccount', 200],
      ['none', 401],
      ['unknown', 401],
    ]);
    // A key echoed in a body is replaced by its role: no key value is ever in the file.
    expect(second!.exchanges[0]!.body).toEqual({ name: 'Nope', note: '<full key>' });
    for (const key of [...DEV_KEYS.map((k) => k.key), 'answers_test_made_up_key'])
      expect(text).not.toContain(key);
    expect(written.sequences).toHaveLength(2);
  });

  it('leaves control requests out', async () => {
    const clock = await mock.handle(
      {
        method: 'GET',
        path: '/__mock/clock',
        query: new URLSearchParams(),
        headers: new Headers(),
      },
      { control: true },
    );
    expect(clock.response.status).toBe(200);
    expect(recording.current().sequences.map((s) => s.name)).not.toContainEqual(
      expect.stringContaining('leaves control requests out'),
    );
  });

  it("never holds another server's exchanges", async () => {
    const other = await setupAnswersServer({
      initialState: emptyState(),
      record: { path: join(folder, 'other.json') },
    });
    await other.mock.handle({
      method: 'GET',
      path: '/api/answers/v1/collections',
      query: new URLSearchParams(),
      headers: new Headers({ authorization: `Bearer ${KEYS.full}` }),
    });
    expect(other.recording!.current().sequences.map((s) => s.name)).toEqual(['unnamed']);
    expect(recording.current().sequences.flatMap((s) => s.exchanges)).toHaveLength(7);
  });
});

describe('createMock({ record })', () => {
  it('records what its one entry answers, a sequence per test name, keys by role; without it, no recording', async () => {
    let test = 'first';
    const recorded = await createMock({
      initialState: emptyState(),
      record: { testName: () => test },
    });
    const request = (key: string, method: string, path: string) => ({
      method,
      path: `/api/answers/v1${path}`,
      query: new URLSearchParams(),
      headers: new Headers({ authorization: `Bearer ${key}` }),
    });
    await recorded.handle(request(KEYS.full, 'GET', '/collections'));
    test = 'second';
    await recorded.handle(request(KEYS.readonly, 'DELETE', '/collections/col_nothing'));
    await recorded.handle(
      { ...request(KEYS.full, 'GET', ''), path: '/__mock/state' },
      { control: true },
    );
    const recording: Recording = recorded.recording();
    expect(
      recording.sequences.map((s) => [
        s.name,
        s.exchanges.map((e) => `${e.key} ${e.method} ${e.status}`),
      ]),
    ).toEqual([
      ['first', ['full GET 200']],
      ['second', ['readonly DELETE 401']],
    ]);
    expect(JSON.stringify(recording)).not.toContain('answers_test_');
    expect('recording' in (await createMock({ initialState: emptyState() }))).toBe(false);
  });
});

describe('a write outside the API, within a test', () => {
  const request = (method: string, path: string, body?: unknown) => ({
    method,
    path: `/api/answers/v1${path}`,
    query: new URLSearchParams(),
    headers: new Headers({
      authorization: `Bearer ${KEYS.full}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    }),
    ...(body === undefined ? {} : { body: new TextEncoder().encode(JSON.stringify(body)) }),
  });

  it('marks the exchange after it, so that replay judges nothing of the test from there', async () => {
    const mock = await createMock({ initialState: emptyState(), record: {} });
    const created = await mock.handle(request('POST', '/collections', { name: 'Recipes' }));
    const { id } = JSON.parse(created.response.body!) as { id: string };
    await Promise.all([
      mock.handle(request('POST', `/collections/${id}/objects`, { content: { a: 1 } })),
      mock.handle(request('POST', `/collections/${id}/objects`, { content: { a: 2 } })),
    ]);
    await mock.handle(request('GET', `/collections/${id}`));
    await mock.db.objects.create({ collection_id: id, content: { seeded: true } });
    await mock.handle(request('GET', `/collections/${id}`));
    await mock.handle(request('GET', '/collections'));
    const [sequence] = mock.recording().sequences;
    expect(
      sequence!.exchanges.map(
        (e) => `${e.method} ${e.status}${e.afterOutsideChange ? ' after an outside change' : ''}`,
      ),
    ).toEqual([
      'POST 201',
      'POST 201',
      'POST 201',
      'GET 200',
      'GET 200 after an outside change',
      'GET 200',
    ]);
  });
});
