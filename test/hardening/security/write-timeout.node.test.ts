/**
 * A write timeout for clients that do not read (issue "Safe on a developer's machine", part 3):
 * a client that sent a request for a large page and never read the answer pinned about 380 MiB
 * per 100-object page (the page's string, and three bytes per character of it in the buffer Node
 * wrote it from) until it disconnected, so a handful of them exhausted the heap. Large bodies are
 * now written in pieces, and a response its client takes nothing of for `writeTimeoutMs`
 * (`--write-timeout`) is abandoned: the connection is closed and the memory freed. A delay set
 * with `--latency` is not a stalled client.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { ServerResponse } from 'node:http';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { createMock, emptyState, type Snapshot } from '../../../src/index.ts';
import { slices } from '../../../src/node/node-io.ts';
import { API, FULL, ROOT, serversClosedAfterEach } from './servers.ts';
import { mockBin } from '../../support/bins.ts';

const { start } = serversClosedAfterEach();

const COLLECTION = 'col_wide0000000000000000';

/** One collection of `count` objects whose content is `text`: a page of them is large. */
function stateWith(count: number, text: (i: number) => string): Snapshot {
  const state = emptyState();
  const account = state.api_keys.find((key) => key.key === FULL)!.account_id;
  const at = (ms: number) => new Date(Date.UTC(2026, 0, 1) + ms).toISOString();
  state.collections.push({
    id: COLLECTION,
    account_id: account,
    name: 'wide',
    metadata: {},
    created_at: at(0),
    updated_at: at(0),
  });
  for (let i = 0; i < count; i++)
    state.objects.push({
      id: `obj_${String(i).padStart(20, '0')}`,
      account_id: account,
      collection_id: COLLECTION,
      content: { [`t${'x'.repeat(i)}`]: text(i) },
      created_at: at(i + 1),
      updated_at: at(i + 1),
      version: 1,
    });
  return state;
}

/** A 100-object page of about 20 MB: far more than the sockets' buffers take. */
const LARGE_PAGE = `${API}/collections/${COLLECTION}/objects?limit=100`;
const largeState = () => stateWith(100, () => 'x'.repeat(200_000));

/** Asks for the large page and reads nothing of the answer (until resumed). */
function stalledClient(url: string): net.Socket {
  const client = net.connect(Number(new URL(url).port), '127.0.0.1');
  client.pause();
  client.write(
    `GET ${LARGE_PAGE} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${FULL}\r\n\r\n`,
  );
  return client;
}

describe('a client that does not read its response', () => {
  it('has the response abandoned and its connection closed after writeTimeoutMs', async () => {
    let abandoned!: (line: string) => void;
    const logged = new Promise<string>((resolve) => (abandoned = resolve));
    const running = await start({
      mock: await createMock({ initialState: largeState() }),
      writeTimeoutMs: 50,
      quiet: false,
      logger: (line) => {
        if (line.includes('abandoned')) abandoned(line);
      },
    });
    const serverSide = new Promise<void>((resolve) =>
      running.server.once('connection', (socket) => socket.once('close', () => resolve())),
    );
    const client = stalledClient(running.url);
    // The client reads nothing: the server gives up on it by itself.
    await serverSide;
    expect(await logged).toMatch(
      /^127\.0\.0\.1 GET \/api\/answers\/v1\/collections\/col_wide0+\/objects 200 .*abandoned: the client took nothing for 50 ms$/,
    );
    // What the client gets when it reads at last: the start of the page, then the end of the
    // connection, short of the length announced.
    const received: Buffer[] = [];
    client.on('data', (chunk: Buffer) => received.push(chunk));
    client.resume();
    await new Promise((resolve) => client.once('close', resolve));
    const bytes = Buffer.concat(received);
    const headEnd = bytes.indexOf('\r\n\r\n');
    const head = bytes.subarray(0, headEnd).toString('latin1');
    expect(head).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    const length = Number(/\r\ncontent-length: (\d+)/i.exec(head)![1]);
    expect(length).toBeGreaterThan(20_000_000);
    expect(bytes.length - headEnd - 4).toBeLessThan(length);
  });

  it('is written in pieces, never handed to the socket as one large string', async () => {
    const running = await start({ mock: await createMock({ initialState: largeState() }) });
    const write = vi.spyOn(ServerResponse.prototype, 'write');
    const end = vi.spyOn(ServerResponse.prototype, 'end');
    const response = await fetch(`${running.url}${LARGE_PAGE}`, {
      headers: { authorization: `Bearer ${FULL}` },
    });
    const page = await response.json();
    expect(page.data).toHaveLength(100);
    const sizes = [...write.mock.calls, ...end.mock.calls].map(([chunk]) =>
      typeof chunk === 'string' || chunk instanceof Uint8Array ? chunk.length : 0,
    );
    expect(Math.max(...sizes)).toBeLessThanOrEqual(64 * 1024);
    expect(sizes.filter((size) => size > 0).length).toBeGreaterThan(300);
  });

  it('is not a response delayed on purpose with a latency longer than the timeout', async () => {
    const mock = await createMock({ initialState: largeState() });
    mock.controls.setLatency(200);
    const running = await start({ mock, writeTimeoutMs: 20 });
    const response = await fetch(`${running.url}${API}/collections`, {
      headers: { authorization: `Bearer ${FULL}` },
    });
    expect(response.status).toBe(200);
    expect((await response.json()).data).toHaveLength(1);
  });

  it('gets every character of a large body intact, pairs split across pieces included', async () => {
    // Objects whose JSON puts a surrogate pair across the first piece boundary, whichever
    // parity: the key grows by one character per object.
    const emoji = (i: number) => '😀'.repeat(40_000 + i);
    const running = await start({
      mock: await createMock({ initialState: stateWith(2, emoji) }),
    });
    for (let i = 0; i < 2; i++) {
      const id = `obj_${String(i).padStart(20, '0')}`;
      const response = await fetch(`${running.url}${API}/collections/${COLLECTION}/objects/${id}`, {
        headers: { authorization: `Bearer ${FULL}` },
      });
      const bytes = Buffer.from(await response.arrayBuffer());
      expect(Number(response.headers.get('content-length'))).toBe(bytes.length);
      expect(JSON.parse(bytes.toString('utf8')).content).toEqual({
        [`t${'x'.repeat(i)}`]: emoji(i),
      });
    }
  });
});

describe('answers-mock --write-timeout', () => {
  const cli = (args: string[]) =>
    spawn(process.execPath, mockBin(...args), {
      cwd: ROOT,
    });

  it('abandons a response its client does not read for that long', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'write-timeout-'));
    const fixture = join(dir, 'state.json');
    await writeFile(fixture, JSON.stringify(largeState()));
    const child = cli(['--port=0', `--fixture=${fixture}`, '--write-timeout=50']);
    try {
      let out = '';
      const waiting: Array<() => void> = [];
      child.stdout.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        for (const look of waiting.splice(0)) look();
      });
      /** Resolves once stdout matches `pattern`; rejects if the mock exits first. */
      const seen = (pattern: RegExp) =>
        new Promise<RegExpExecArray>((resolve, reject) => {
          const look = () => {
            const match = pattern.exec(out);
            if (match) resolve(match);
            else waiting.push(look);
          };
          child.once('exit', (code) => reject(new Error(`exited with ${code}: ${out}`)));
          look();
        });
      const [, url] = await seen(/listening on (http:\/\/\S+)/);
      const client = stalledClient(url!);
      await seen(/ 200 .*abandoned: the client took nothing for 50 ms/);
      client.destroy();
    } finally {
      child.kill();
      await rm(dir, { recursive: true, force: true });
    }
  });

  it.each(['0', '3600001', '1.5', 'soon'])(
    'refuses --write-timeout %s with exit 2',
    async (value) => {
      const child = cli(['--port=0', '--empty', `--write-timeout=${value}`]);
      let err = '';
      child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
      const code = await new Promise((resolve) => child.once('close', resolve));
      expect(code).toBe(2);
      expect(err).toMatch(/write-timeout must be an integer from 1 to 3600000/);
    },
  );
});

describe('slices', () => {
  it.each([
    { text: '', size: 4, want: [] },
    { text: 'abcdefgh', size: 4, want: ['abcd', 'efgh'] },
    { text: 'abcdefghi', size: 4, want: ['abcd', 'efgh', 'i'] },
    // A pair across a boundary moves whole into the next slice.
    { text: 'abc😀def', size: 4, want: ['abc', '😀de', 'f'] },
    { text: 'ab😀cdef', size: 4, want: ['ab😀', 'cdef'] },
    { text: '😀😀😀', size: 3, want: ['😀', '😀', '😀'] },
    // A pair that ends the text is never cut.
    { text: 'abc😀', size: 4, want: ['abc', '😀'] },
    // A lone high surrogate (not from JSON.stringify, which escapes them) still makes progress.
    { text: '\ud83dabc', size: 1, want: ['\ud83d', 'a', 'b', 'c'] },
  ])('cuts $text in slices of $size code units at most', ({ text, size, want }) => {
    const cut = [...slices(text, size)];
    expect(cut).toEqual(want);
    expect(cut.join('')).toBe(text);
  });
});
