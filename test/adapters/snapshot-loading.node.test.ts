/**
 * Loading data accepts exactly what the API would accept, at any size: an export imports again
 * unchanged over `PUT /__mock/state` past the API's 1 MiB body limit, the state upload has a
 * limit of its own with a clear 413, a number the API would refuse is refused with its path, and
 * a UTF-8 BOM is not an error. Also: the express router behind `express.json()`.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import express from 'express';
import { afterEach, describe, expect, it } from 'vitest';
import { createAnswersRouter } from '../../src/express/index.ts';
import {
  createMock,
  emptyState,
  SnapshotError,
  SnapshotLimitError,
  type Snapshot,
} from '../../src/index.ts';
import { DEFAULT_MAX_WORDS, V8_MAP_CAP, wordLimit } from '../../src/core/limits.ts';
import { startServer, type RunningServer } from '../../src/node/server.ts';
import { KEYS } from '../support/keys.ts';
import { mockBin } from '../support/bins.ts';

let server: RunningServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** The dev keys, one collection and `count` objects of about 400 bytes each. */
function bigState(count: number): Snapshot {
  const state = emptyState();
  const account = state.api_keys.find((key) => key.key === KEYS.full)!.account_id;
  const at = '2026-01-01T00:00:00.000Z';
  state.collections.push({
    id: 'col_big00000000000000000',
    account_id: account,
    name: 'big',
    metadata: {},
    created_at: at,
    updated_at: at,
  });
  for (let i = 0; i < count; i++) {
    const created = new Date(Date.parse(at) + i + 1).toISOString();
    state.objects.push({
      id: `obj_${String(i).padStart(20, '0')}`,
      account_id: account,
      collection_id: 'col_big00000000000000000',
      content: { title: `object ${i}`, text: 'lorem ipsum dolor sit amet '.repeat(10) },
      created_at: created,
      updated_at: created,
      version: 1,
    });
  }
  return state;
}

/** `bigState(objects)` whose first object holds `words` distinct words of its own besides. */
function wordyState(words: number, objects = 1): Snapshot {
  const state = bigState(objects);
  const content = state.objects[0]!.content as Record<string, unknown>;
  content.words = Array.from({ length: words }, (_, i) => `w${i.toString(36)}`).join(' ');
  return state;
}

/** The distinct words of `bigState(1)`'s object, as the mock counts them. */
const OWN_WORDS = new Set('object 0 lorem ipsum dolor sit amet'.split(' ')).size;

const putState = (url: string, body: string) =>
  fetch(`${url}/__mock/state`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body,
  });

describe('PUT /__mock/state', () => {
  it('imports an export larger than the API body limit again, unchanged', async () => {
    const mock = await createMock({ initialState: bigState(4_000) });
    server = await startServer({ mock, port: 0, quiet: true });
    const exported = await (await fetch(`${server.url}/__mock/state`)).text();
    expect(exported.length).toBeGreaterThan(1_048_576);
    await mock.controls.load(emptyState());
    const response = await putState(server.url, exported);
    expect(response.status).toBe(204);
    expect(mock.controls.export()).toEqual(JSON.parse(exported));
  });

  it('answers 413 naming the limit and how to raise it past maxStateBytes', async () => {
    const mock = await createMock({ initialState: bigState(10) });
    server = await startServer({ mock, port: 0, quiet: true, maxStateBytes: 1_000 });
    const before = mock.controls.export();
    const response = await putState(server.url, JSON.stringify(before));
    expect(response.status).toBe(413);
    const body = await response.json();
    expect(body.code).toBe('payload_too_large');
    expect(body.detail).toMatch(/at most 1000 bytes.*--max-state-bytes/);
    expect(mock.controls.export()).toEqual(before);
  });

  it('keeps the API body limit at 1 MiB for every other request', async () => {
    const mock = await createMock({ initialState: emptyState() });
    server = await startServer({ mock, port: 0, quiet: true });
    const response = await fetch(`${server.url}/api/answers/v1/collections`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEYS.full}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'x', metadata: { big: 'x'.repeat(1_100_000) } }),
    });
    expect(response.status).toBe(413);
  });

  it('refuses a number the API would refuse, with its path, and keeps the data', async () => {
    const mock = await createMock({ initialState: bigState(1) });
    server = await startServer({ mock, port: 0, quiet: true });
    const before = mock.controls.export();
    const text = JSON.stringify(before).replace('"version":1', '"version":1e400');
    const response = await putState(server.url, text);
    expect(response.status).toBe(400);
    const body = await response.json();
    expect(body.code).toBe('invalid_state');
    expect(body.detail).toContain('/objects/0/version');
    expect(mock.controls.export()).toEqual(before);
  });

  it.each([
    ['the state', (state: Record<string, any>) => ({ ...state, junk: 1 }), '/ has'],
    [
      'an account',
      (state: Record<string, any>) => void (state.accounts[0].junk = 1),
      '/accounts/0',
    ],
    ['a key', (state: Record<string, any>) => void (state.api_keys[0].junk = 1), '/api_keys/0'],
    [
      'a collection',
      (state: Record<string, any>) => void (state.collections[0].junk = 1),
      '/collections/0',
    ],
    ['an object', (state: Record<string, any>) => void (state.objects[0].junk = 1), '/objects/0'],
  ])(
    'refuses a field it does not know in %s, naming it, and keeps the data',
    async (_, spoil, where) => {
      const mock = await createMock({ initialState: bigState(1) });
      server = await startServer({ mock, port: 0, quiet: true });
      const before = mock.controls.export();
      const state = structuredClone(before) as Record<string, any>;
      const response = await putState(server.url, JSON.stringify(spoil(state) ?? state));
      expect(response.status).toBe(400);
      const body = await response.json();
      expect(body.code).toBe('invalid_state');
      expect(body.detail).toBe(
        `Invalid state: ${where.replace(' has', '')} has an unknown field "junk"`,
      );
      expect(mock.controls.export()).toEqual(before);
    },
  );

  it.each([
    [
      'distinct search words',
      { maxWords: 1_000 },
      wordyState(1_001),
      'maxWords',
      1_000,
      'more than the mock’s limit of 1000 distinct search words; load less, or raise the limit (maxWords).',
    ],
    [
      'objects',
      { maxObjects: 3 },
      bigState(4),
      'maxObjects',
      3,
      '4 objects, past the mock’s limit of 3; load less, or raise the limit (maxObjects, or --max-objects).',
    ],
    [
      'stored JSON',
      { maxStoredBytes: 1_000 },
      bigState(4),
      'maxStoredBytes',
      1_000,
      'more than the mock’s limit of 1000 bytes of stored JSON; load less, or raise the limit (maxStoredBytes, or --max-stored-bytes).',
    ],
  ] as const)(
    'refuses a state of more %s than the mock holds with 507, naming the limit, and keeps the data',
    async (_, limits, state, limit, bound, detail) => {
      const mock = await createMock({ initialState: bigState(1), ...limits });
      server = await startServer({ mock, port: 0, quiet: true });
      const before = mock.controls.export();
      const response = await putState(server.url, JSON.stringify(state));
      expect(response.status).toBe(507);
      expect(await response.json()).toMatchObject({
        status: 507,
        code: 'state_too_large',
        detail: `The state holds ${detail}`,
      });
      expect(mock.controls.export()).toEqual(before);
      await expect(mock.controls.load(state)).rejects.toMatchObject({ limit, bound });
    },
  );

  it('loads a state of exactly the limit of distinct words, and refuses one more', async () => {
    const mock = await createMock({ initialState: bigState(1), maxWords: 1_000 });
    server = await startServer({ mock, port: 0, quiet: true });
    const more = await putState(server.url, JSON.stringify(wordyState(1_001 - OWN_WORDS)));
    expect(more.status).toBe(507);
    const exactly = await putState(server.url, JSON.stringify(wordyState(1_000 - OWN_WORDS)));
    expect(exactly.status).toBe(204);
  });

  it('accepts a body that starts with a UTF-8 BOM', async () => {
    const mock = await createMock({ initialState: emptyState() });
    server = await startServer({ mock, port: 0, quiet: true });
    const state = bigState(2);
    const response = await putState(server.url, `\uFEFF${JSON.stringify(state)}`);
    expect(response.status).toBe(204);
    expect(mock.controls.export().objects).toHaveLength(2);
  });
});

describe('loading in code', () => {
  it('refuses Infinity in initial data as the API would', async () => {
    const state = bigState(1);
    (state.objects[0]!.content as Record<string, unknown>).n = Number.POSITIVE_INFINITY;
    await expect(createMock({ initialState: state })).rejects.toThrow(SnapshotError);
    await expect(createMock({ initialState: state })).rejects.toThrow(
      '/objects/0/content/n is too large a number',
    );
  });
});

describe('loading past the limits in code', () => {
  it('refuses initial data of more distinct words than maxWords with a SnapshotLimitError', async () => {
    const making = createMock({ initialState: wordyState(1_001), maxWords: 1_000 });
    await expect(making).rejects.toThrow(SnapshotLimitError);
    await expect(making).rejects.toMatchObject({ limit: 'maxWords', bound: 1_000 });
  });

  it('holds every load below V8’s cap on a Map’s entries, whatever maxWords says', () => {
    // @note What makes the lowered limits above stand for the real ones: the limit a load and a
    // write are held to is below the cap by construction, so no state reaches it.
    expect(DEFAULT_MAX_WORDS).toBeLessThan(V8_MAP_CAP);
    for (const maxWords of [DEFAULT_MAX_WORDS, V8_MAP_CAP, 10 ** 9, Infinity])
      expect(wordLimit(maxWords)).toBeLessThan(V8_MAP_CAP);
    expect(wordLimit(1_000)).toBe(1_000);
  });
});

describe('a long load', () => {
  it('lets the event loop run between batches and never shows a half-loaded state', async () => {
    const mock = await createMock({ initialState: bigState(1) });
    const before = mock.controls.export();
    const loading = mock.controls.load(bigState(10_000));
    // A load of 10,000 objects yields at least four times: these turns of the event loop run
    // while it is under way, and every read in them sees the whole old state.
    for (let turn = 0; turn < 3; turn++) {
      await new Promise((resolve) => setImmediate(resolve));
      expect(mock.controls.export()).toEqual(before);
    }
    await loading;
    expect(mock.controls.export().objects).toHaveLength(10_000);
  });
});

describe('answers-mock --fixture', () => {
  it('loads a fixture file that starts with a UTF-8 BOM', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'answers-bom-'));
    try {
      const file = join(dir, 'fixture.json');
      await writeFile(file, `\uFEFF${JSON.stringify(bigState(3))}`);
      const child = spawn(process.execPath, mockBin('--port', '0', '--fixture', file), {
        cwd: fileURLToPath(new URL('../..', import.meta.url)),
      });
      let out = '';
      let err = '';
      child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
      const base = await new Promise<string>((resolve, reject) => {
        child.stdout.on('data', (chunk: Buffer) => {
          out += chunk.toString();
          const match = /(http:\/\/127\.0\.0\.1:\d+)\/api\/answers\/v1/.exec(out);
          if (match) resolve(match[1]!);
        });
        child.once('exit', (code) => reject(new Error(`exited with ${code}: ${err}`)));
      });
      const state = await (await fetch(`${base}/__mock/state`)).json();
      child.kill('SIGTERM');
      expect(state.objects).toHaveLength(3);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 30_000);
});

describe('answers-mock --fixture past a limit', () => {
  it('exits 2 with one line naming the limit', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'answers-fixture-limit-'));
    try {
      const file = join(dir, 'fixture.json');
      await writeFile(file, JSON.stringify(bigState(4)));
      const child = spawn(
        process.execPath,
        mockBin('--port', '0', '--max-objects', '3', '--fixture', file),
        { cwd: fileURLToPath(new URL('../..', import.meta.url)) },
      );
      let err = '';
      child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
      const code = await new Promise((resolve) => child.once('close', resolve));
      expect([code, err]).toEqual([
        2,
        `answers-mock: ${file}: The state holds 4 objects, past the mock’s limit of 3; load less, or raise the limit (maxObjects, or --max-objects).\n`,
      ]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 30_000);
});

describe('the express router behind express.json()', () => {
  let app: Server | undefined;
  afterEach(async () => {
    app?.closeAllConnections();
    await new Promise((resolve) => app?.close(resolve));
    app = undefined;
  });

  it('takes the body the parser already read', async () => {
    const mock = await createMock({ initialState: emptyState() });
    const site = express();
    site.use(express.json());
    site.use(createAnswersRouter(mock));
    app = site.listen(0, '127.0.0.1');
    await new Promise((resolve) => app!.once('listening', resolve));
    const base = `http://127.0.0.1:${(app.address() as AddressInfo).port}`;
    const response = await fetch(`${base}/api/answers/v1/collections`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEYS.full}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'parsed first', metadata: { a: 1 } }),
    });
    expect(response.status).toBe(201);
    expect(await response.json()).toMatchObject({ name: 'parsed first', metadata: { a: 1 } });
  });
});
