/**
 * `answers-mock --record` keeps its memory bounded whatever it is sent: a recording is appended
 * to, never held whole, and a refused request keeps its status, never its body. 2,000 requests of
 * 512 KB without a key (a web page can send them as `text/plain`) ran it out of memory after 196
 * when each exchange rewrote the whole recording with its body.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RecordingLine } from '../../../src/openapi/recording.ts';
import { API, ROOT } from './servers.ts';

const REQUESTS = 2_000;
const CONNECTIONS = 4;
const MAX_RSS_MB = 300;

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'answers-record-memory-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('answers-mock --record under large refused requests', () => {
  it(`answers ${REQUESTS} requests of 512 KB without a key, under ${MAX_RSS_MB} MB, each recorded by its status only`, async () => {
    const file = join(dir, 'session.jsonl');
    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        '--import',
        './test/support/max-rss.ts',
        'src/bin/answers-mock.ts',
        ...['--port', '0', '--quiet', '--record', file],
      ],
      { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    let err = '';
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    const closed = new Promise<number | null>((resolve) => child.once('close', resolve));
    const base = await new Promise<string>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        const match = /(http:\/\/127\.0\.0\.1:\d+)\/api\/answers\/v1/.exec(out);
        if (match) resolve(match[1]!);
      });
      child.once('close', () => reject(new Error(`exited: ${err}`)));
    });
    // @note JSON sent as text/plain: what a page may send without a preflight, and what the
    // recording parsed and kept before.
    const body = JSON.stringify({ name: 'x'.repeat(512 * 1024 - 20) });
    const statuses = new Map<number, number>();
    let next = 0;
    await Promise.all(
      Array.from({ length: CONNECTIONS }, async () => {
        while (next < REQUESTS) {
          next += 1;
          const response = await fetch(`${base}${API}/collections`, {
            method: 'POST',
            headers: { 'content-type': 'text/plain' },
            body,
          });
          await response.arrayBuffer();
          statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
        }
      }),
    );
    child.kill('SIGTERM');
    expect(await closed).toBe(0);
    expect([...statuses]).toEqual([[401, REQUESTS]]);
    const rssMb = Number(/max-rss-kb (\d+)/.exec(err)?.[1]) / 1024;
    expect(rssMb, `peak RSS ${rssMb.toFixed(0)} MB`).toBeLessThan(MAX_RSS_MB);
    if (process.env.SHOW_RSS) console.log(`peak RSS ${rssMb.toFixed(0)} MB`);
    const lines = (await readFile(file, 'utf8')).trimEnd().split('\n');
    expect(lines).toHaveLength(REQUESTS + 1);
    const exchange = (JSON.parse(lines[1]!) as RecordingLine).exchange;
    expect(exchange).toEqual({
      operation: 'createCollection',
      method: 'POST',
      path: `${API}/collections`,
      query: '',
      key: 'none',
      status: 401,
    });
  }, 180_000);
});
