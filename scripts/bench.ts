/**
 * `npm run bench`: the performance figures of the mock, as ratios against baselines measured in
 * the same run, on loopback only, bounded in time. Prints the tables and writes
 * docs/performance.md. Not a test: nothing here asserts a speed.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { cpus, totalmem } from 'node:os';
import { readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { CHECKS } from '../src/contract/checks/index.ts';
import { runContract } from '../src/contract/runner.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const TSX = fileURLToPath(new URL('../node_modules/tsx/dist/loader.mjs', import.meta.url));
const PRISM = createRequire(import.meta.url).resolve('@stoplight/prism-cli/dist/index.js');
const KEY = 'answers_test_full_acme';
const QUICK = process.argv.includes('--quick');
const DURATION = QUICK ? 2 : 5;
const SIZES = QUICK ? [1_000, 10_000] : [1_000, 100_000, 1_000_000];

interface Started {
  url: string;
  lines: string[];
  child: ChildProcess;
  startedMs: number;
}

/** Starts a process and resolves when it prints `listening <url>` (or Prism's equivalent). */
function start(args: string[], timeoutMs = 600_000): Promise<Started> {
  const began = performance.now();
  const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  const lines: string[] = [];
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`no start within ${timeoutMs} ms: ${lines.join('\n')}`)),
      timeoutMs,
    );
    const onLine = (chunk: Buffer) => {
      for (const line of chunk.toString().split('\n')) {
        if (line) lines.push(line);
        const match = /listening (?:on )?(http:\/\/[\d.:]+)/i.exec(line);
        if (match) {
          clearTimeout(timer);
          resolve({ url: match[1]!, lines, child, startedMs: performance.now() - began });
        }
      }
    };
    child.stdout!.on('data', onLine);
    child.stderr!.on('data', onLine);
    child.once('exit', (code) => reject(new Error(`exited with ${code}: ${lines.join('\n')}`)));
  });
}

function stop(process_: Started): Promise<void> {
  return new Promise((resolve) => {
    if (process_.child.exitCode !== null) return resolve();
    process_.child.removeAllListeners('exit');
    process_.child.once('exit', () => resolve());
    process_.child.kill('SIGTERM');
    setTimeout(() => process_.child.kill('SIGKILL'), 5_000).unref();
  });
}

interface Scenario {
  name: string;
  method: 'GET' | 'POST';
  path: string;
  body?: string;
  key?: boolean;
}

interface Measured {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  unexpected: number;
}

/** Drives one request shape for DURATION seconds after a 1 s warm-up. */
async function drive(
  url: string,
  scenario: Scenario,
  connections = 16,
  duration = DURATION,
): Promise<Measured> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (scenario.key !== false) headers.authorization = `Bearer ${KEY}`;
  const options = {
    url: `${url}${scenario.path}`,
    method: scenario.method,
    headers,
    body: scenario.body,
    connections,
  };
  await autocannon({ ...options, duration: 1 });
  const result = await autocannon({ ...options, duration });
  const expected = scenario.key === false ? (result['4xx'] ?? result.non2xx) : result['2xx'];
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts,
    unexpected: result.requests.total - expected,
  };
}

/**
 * Latency of one request at a time, timed here (autocannon reports whole milliseconds, too coarse
 * to compare sizes): p50 and p99 in ms over `count` requests after 200 of warm-up.
 */
async function sequential(
  url: string,
  scenario: Scenario,
  count = QUICK ? 500 : 2_000,
): Promise<{ p50: number; p99: number }> {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    authorization: `Bearer ${KEY}`,
  };
  const send = async () => {
    const response = await fetch(`${url}${scenario.path}`, {
      method: scenario.method,
      headers,
      body: scenario.body,
    });
    await response.arrayBuffer();
    if (!response.ok) throw new Error(`${scenario.name}: ${response.status}`);
  };
  for (let i = 0; i < 200; i++) await send();
  const times: number[] = [];
  for (let i = 0; i < count; i++) {
    const began = performance.now();
    await send();
    times.push(performance.now() - began);
  }
  times.sort((a, b) => a - b);
  return { p50: times[Math.floor(count / 2)]!, p99: times[Math.floor(count * 0.99)]! };
}

function scenarios(prefix: string, collectionId: string, objectId: string): Scenario[] {
  return [
    { name: 'get a collection', method: 'GET', path: `${prefix}/collections/${collectionId}` },
    { name: 'list a page', method: 'GET', path: `${prefix}/collections?limit=20` },
    {
      name: 'get an object',
      method: 'GET',
      path: `${prefix}/collections/${collectionId}/objects/${objectId}`,
    },
    {
      name: 'search',
      method: 'POST',
      path: `${prefix}/search`,
      body: JSON.stringify({ query: 'billing security' }),
    },
    { name: '401 (no key)', method: 'GET', path: `${prefix}/collections`, key: false },
  ];
}

const fmt = (n: number, digits = 0) =>
  n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
const table = (rows: string[][]) =>
  [rows[0]!, rows[0]!.map(() => '---'), ...rows.slice(1)]
    .map((row) => `| ${row.join(' | ')} |`)
    .join('\n');

async function throughput(): Promise<string> {
  const bare = await start([
    '--import',
    TSX,
    fileURLToPath(new URL('bench/bare-server.ts', import.meta.url)),
  ]);
  const mock = await start([
    '--expose-gc',
    '--import',
    TSX,
    fileURLToPath(new URL('bench/mock-server.ts', import.meta.url)),
  ]);
  const figures = JSON.parse(mock.lines.find((line) => line.startsWith('{'))!);
  const prism = await start([
    PRISM,
    'mock',
    'openapi.yaml',
    '--host',
    '127.0.0.1',
    '--port',
    '4099',
  ]);
  const rows: string[][] = [
    [
      'request',
      'server',
      'req/s',
      'p50 ms',
      'p99 ms',
      'errors',
      'req/s vs bare',
      'p99 vs bare',
      'req/s vs Prism',
    ],
  ];
  try {
    const bareResult = await drive(bare.url, { name: 'bare', method: 'GET', path: '/' });
    rows.push([
      '1 KB JSON',
      'bare node:http',
      fmt(bareResult.rps),
      fmt(bareResult.p50),
      fmt(bareResult.p99),
      fmt(bareResult.errors),
      '1.00',
      '1.00',
      '',
    ]);
    const ours = scenarios('/api/answers/v1', figures.collectionId, figures.objectId);
    const theirs = scenarios('', 'col_8f3k2m9q1x7v4b6n0p5r', 'obj_4n8c2v6b1m9x3z7q5w0e');
    for (let i = 0; i < ours.length; i++) {
      const a = await drive(mock.url, ours[i]!);
      const b = await drive(prism.url, theirs[i]!);
      const p99 = (m: Measured) => fmt(m.p99 / Math.max(bareResult.p99, 1), 2);
      rows.push([
        ours[i]!.name,
        'answers mock',
        fmt(a.rps),
        fmt(a.p50),
        fmt(a.p99),
        fmt(a.errors + a.unexpected),
        fmt(a.rps / bareResult.rps, 2),
        p99(a),
        fmt(a.rps / b.rps, 1),
      ]);
      rows.push([
        ours[i]!.name,
        'Prism mock',
        fmt(b.rps),
        fmt(b.p50),
        fmt(b.p99),
        fmt(b.errors + b.unexpected),
        fmt(b.rps / bareResult.rps, 2),
        p99(b),
        '1.0',
      ]);
    }
  } finally {
    await Promise.all([stop(bare), stop(mock), stop(prism)]);
  }
  return table(rows);
}

async function scale(): Promise<string> {
  const rows: string[][] = [
    [
      'objects',
      'seed s',
      'RSS B/object',
      'heap B/object',
      'JSON B/object',
      'get object p50 / p99 ms',
      'list page p50 / p99 ms',
      'search p50 / p99 ms',
    ],
  ];
  for (const size of SIZES) {
    const mock = await start([
      '--expose-gc',
      '--max-old-space-size=8192',
      '--import',
      TSX,
      fileURLToPath(new URL('bench/mock-server.ts', import.meta.url)),
      '--objects',
      String(size),
    ]);
    try {
      const f = JSON.parse(mock.lines.find((line) => line.startsWith('{'))!);
      const [, list, get, search] = scenarios('/api/answers/v1', f.collectionId, f.objectId);
      const g = await sequential(mock.url, get!);
      const l = await sequential(mock.url, list!);
      const s = await sequential(mock.url, search!, QUICK ? 50 : 200);
      const both = (m: { p50: number; p99: number }, digits: number) =>
        `${fmt(m.p50, digits)} / ${fmt(m.p99, digits)}`;
      rows.push([
        fmt(f.objects),
        fmt(f.seedMs / 1000, 1),
        fmt(f.rssBytes / f.objects),
        fmt(f.heapBytes / f.objects),
        fmt(f.jsonBytes / f.objects),
        both(g, 3),
        both(l, 3),
        both(s, 1),
      ]);
    } finally {
      await stop(mock);
    }
  }
  return table(rows);
}

async function startup(): Promise<string> {
  const runs = QUICK ? 3 : 5;
  const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  const measure = async (args: string[], probe: (url: string) => Promise<boolean>) => {
    const times: number[] = [];
    for (let i = 0; i < runs; i++) {
      const began = performance.now();
      const process_ = await start(args, 120_000);
      while (!(await probe(process_.url).catch(() => false)))
        await new Promise((r) => setTimeout(r, 5));
      times.push(performance.now() - began);
      await stop(process_);
    }
    return median(times);
  };
  const ours = await measure(
    ['--import', TSX, 'src/bin/answers-mock.ts', '--port', '0', '--quiet'],
    async (url) =>
      (
        await fetch(`${url}/api/answers/v1/collections`, {
          headers: { authorization: `Bearer ${KEY}` },
        })
      ).ok,
  );
  const prism = await measure(
    [PRISM, 'mock', 'openapi.yaml', '--host', '127.0.0.1', '--port', '4098'],
    async (url) =>
      (await fetch(`${url}/collections`, { headers: { authorization: `Bearer ${KEY}` } })).ok,
  );
  return table([
    ['server', `median of ${runs} starts to first 200, ms`, 'vs Prism'],
    ['answers mock (npm start: tsx src/bin/answers-mock.ts)', fmt(ours), fmt(ours / prism, 2)],
    ['Prism mock', fmt(prism), '1.00'],
  ]);
}

async function contractSuite(): Promise<string> {
  const mock = await start(['--import', TSX, 'src/bin/answers-mock.ts', '--port', '0', '--quiet']);
  try {
    const began = performance.now();
    const report = await runContract({
      baseUrl: `${mock.url}/api/answers/v1`,
      keys: {
        full: KEY,
        readonly: 'answers_test_readonly_acme',
        otherAccount: 'answers_test_full_globex',
        inactive: 'answers_test_inactive_acme',
      },
      checks: CHECKS,
      destructive: true,
    });
    const seconds = (performance.now() - began) / 1000;
    return table([
      ['checks', 'passed', 'failed', 'seconds'],
      [
        fmt(report.results.length),
        fmt(report.counts.pass),
        fmt(report.counts.fail),
        fmt(seconds, 2),
      ],
    ]);
  } finally {
    await stop(mock);
  }
}

const sections: Array<[string, () => Promise<string>]> = [
  ['Throughput (16 connections, loopback)', throughput],
  ['Scale (1 connection; memory after seeding and a full GC)', scale],
  ['Startup', startup],
  ['Contract suite against the local mock', contractSuite],
];
const machine = `${cpus().length} × ${cpus()[0]?.model ?? 'unknown CPU'}, ${fmt(totalmem() / 2 ** 30, 0)} GiB, Node ${process.version}`;
let markdown = `Last measured ${new Date().toISOString()} on ${machine} with \`npm run bench${QUICK ? ' -- --quick' : ''}\`. Load generator (autocannon) and servers share the machine; every ratio compares figures from the same run.\n`;
for (const [title, run] of sections) {
  console.log(`\n## ${title}\n`);
  const text = await run();
  console.log(text);
  markdown += `\n## ${title}\n\n${text}\n`;
}
// @note Only the measured block between the markers is replaced: the analysis around it is
// written by people and must survive the next run.
const file = new URL('../docs/performance.md', import.meta.url);
const previous = await readFile(file, 'utf8').catch(() => '');
const START = '<!-- bench:start -->';
const END = '<!-- bench:end -->';
const block = `${START}\n${markdown.trim()}\n${END}`;
await writeFile(
  file,
  previous.includes(START) && previous.includes(END)
    ? previous.slice(0, previous.indexOf(START)) +
        block +
        previous.slice(previous.indexOf(END) + END.length)
    : `${block}\n`,
);
console.log('\nwrote docs/performance.md');
