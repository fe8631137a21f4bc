/**
 * A target that answers without end: the CLI is bounded by its own limits (src/contract/limits.ts),
 * not by the target. Each case ends with exit 1 or 2, a clear line naming the limit and no stack
 * trace, with the CLI's peak memory under 300 MB.
 */
import { spawn } from 'node:child_process';
import { writeFile, truncate, rm, mkdtemp } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const MAX_RSS_MB = 300;

/** How the hostile target answers a list. */
type Mode = 'endless-body' | 'million-items' | 'thirty-thousand-items' | 'fresh-tokens';
let mode: Mode = 'endless-body';
let server: Server;
let base: string;
let dir: string;

beforeAll(async () => {
  server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://x');
    response.setHeader('content-type', 'application/json');
    // @note Only the list, with the key, answers without end: the rest is a quick refusal.
    const key =
      request.headers.authorization === 'Bearer k' || request.headers['x-answers-api-key'] === 'k';
    if (!key || request.method !== 'GET' || !url.pathname.endsWith('/collections')) {
      response.statusCode = key ? 404 : 401;
      response.end('{"code":"no"}');
      return;
    }
    if (mode === 'endless-body') {
      // A list that never ends: chunk after chunk for as long as someone reads.
      response.write('{"data":[');
      const chunk = `${'{"id":"c","name":"n","metadata":{},"object_count":0},'.repeat(1000)}`;
      const more = () => {
        while (response.write(chunk));
        response.once('drain', more);
      };
      response.on('close', () => response.removeAllListeners('drain'));
      more();
      return;
    }
    if (mode === 'thirty-thousand-items') {
      response.end(`{"data":[${'{"id":"c"},'.repeat(29_999)}{"id":"c"}],"next_cursor":"more"}`);
      return;
    }
    if (mode === 'million-items') {
      response.end(`{"data":[${'{"id":"c"},'.repeat(999_999)}{"id":"c"}],"next_cursor":null}`);
      return;
    }
    // Fresh tokens forever, 10,000 items a page.
    const page = Number(url.searchParams.get('cursor') ?? '0');
    const items = Array.from({ length: 10_000 }, (_, i) => ({
      id: `c${page}-${i}`,
      name: 'n',
      metadata: {},
      object_count: 0,
      created_at: '2026-01-01T00:00:00.000Z',
    }));
    response.end(JSON.stringify({ data: items, next_cursor: String(page + 1) }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/answers/v1`;
  dir = await mkdtemp(join(tmpdir(), 'answers-hostile-'));
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await rm(dir, { recursive: true, force: true });
});

function cli(args: string[]): Promise<{ code: number | null; out: string; rssMb: number }> {
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      '--import',
      './test/support/max-rss.ts',
      'src/bin/answers-contract.ts',
      ...args,
    ],
    { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
  return new Promise((resolve) =>
    child.on('close', (code) => {
      const kb = Number(/max-rss-kb (\d+)/.exec(out)?.[1] ?? Number.NaN);
      resolve({ code, out: out.replace(/\nmax-rss-kb \d+\n$/, ''), rssMb: kb / 1024 });
    }),
  );
}

const suite = () => cli(['--base-url', base, '--api-key', 'k']);

function expectBounded(ran: { code: number | null; out: string; rssMb: number }, said: RegExp) {
  expect([1, 2], ran.out.slice(-2000)).toContain(ran.code);
  expect(ran.out).toMatch(said);
  expect(ran.out).not.toMatch(/\n\s+at .+:\d+:\d+/); // no stack trace
  expect(ran.rssMb, `peak RSS ${ran.rssMb.toFixed(0)} MB`).toBeLessThan(MAX_RSS_MB);
  if (process.env.SHOW_RSS) console.log(`peak RSS ${ran.rssMb.toFixed(0)} MB`);
}

describe('the CLI against a hostile target stays bounded and says why', () => {
  it('an endless body: exit 2, the body limit named', async () => {
    mode = 'endless-body';
    expectBounded(
      await suite(),
      /^answers-contract: cannot reach .*longer than the 8388608 bytes the suite reads/m,
    );
  }, 60_000);

  it('a page of a million items (11 MB): the body limit ends it before it is parsed', async () => {
    mode = 'million-items';
    expectBounded(
      await suite(),
      /^answers-contract: cannot reach .*longer than the 8388608 bytes the suite reads/m,
    );
  }, 60_000);

  it('a page of 30,000 small items: the walk fails naming its item limit', async () => {
    mode = 'thirty-thousand-items';
    expectBounded(await suite(), /the list did not end within 20000 items \(1 pages\)/);
  }, 60_000);

  it('fresh next-page tokens forever: the walk ends at the item limit', async () => {
    mode = 'fresh-tokens';
    expectBounded(await suite(), /the list did not end within 20000 items/);
  }, 60_000);

  it('a YAML alias bomb as the target file: exit 2, one line', async () => {
    const file = join(dir, 'bomb.yaml');
    const levels = ['a: &a ["x","x","x","x","x","x","x","x","x"]'];
    for (let i = 1; i < 9; i++) {
      const previous = String.fromCharCode(96 + i);
      const name = String.fromCharCode(97 + i);
      levels.push(
        `${name}: &${name} [*${previous},*${previous},*${previous},*${previous},*${previous},*${previous},*${previous},*${previous},*${previous}]`,
      );
    }
    await writeFile(file, `${levels.join('\n')}\n`);
    const ran = await cli(['--target', file, '--base-url', base, '--api-key', 'k']);
    expect(ran.code).toBe(2);
    expect(ran.out.trim().split('\n')).toHaveLength(1);
    expectBounded(
      ran,
      /bomb\.yaml: \(the whole file\): not a usable description: .*at most 100 aliases/,
    );
  }, 60_000);

  it('a 200 MB target file: exit 2, one line, never read', async () => {
    const file = join(dir, 'huge.yaml');
    await writeFile(file, '');
    await truncate(file, 200 * 1024 * 1024); // sparse: the size is what counts
    const ran = await cli(['--target', file, '--base-url', base, '--api-key', 'k']);
    expect(ran.code).toBe(2);
    expect(ran.out.trim().split('\n')).toHaveLength(1);
    expectBounded(
      ran,
      /huge\.yaml: \(the whole file\): is 209715200 bytes; a target description is at most 1048576 bytes/,
    );
  }, 60_000);
});
