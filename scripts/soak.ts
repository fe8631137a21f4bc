/**
 * `npm run soak` (`-- --quick` for 20,000 requests): a soak test of the mock server, not a unit
 * test. It starts the server in a child process (scripts/soak/server.ts, --expose-gc) on
 * 127.0.0.1, warms it up with 10,000 requests, then drives 200,000 mixed requests (reads, search,
 * create/patch/delete of objects, 401s, 400s, 404s) over 64 connections with autocannon, and
 * checks the targets: every request answered with its expected status, no 5xx, no errors,
 * timeouts or dropped connections, nothing on the server's stderr, and memory after the run
 * (after GC) within 10% of memory after the warm-up. Prints a table; exits 1 when a target is
 * missed, 2 when the soak could not run. Every phase is bounded in requests and in time.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const TSX = fileURLToPath(new URL('../node_modules/tsx/dist/loader.mjs', import.meta.url));
const SERVER = fileURLToPath(new URL('soak/server.ts', import.meta.url));
const QUICK = process.argv.includes('--quick');
const WARMUP = 10_000;
const AMOUNT = QUICK ? 20_000 : 200_000;
const CONNECTIONS = 64;
/** Hard limits: a phase that has not finished by then is stopped and counted as a miss. */
const WARMUP_LIMIT_MS = 60_000;
const RUN_LIMIT_MS = QUICK ? 60_000 : 300_000;
const MEMORY_TOLERANCE = 0.1;
const KEY = 'answers_test_full_acme';
const PREFIX = '/api/answers/v1';

// ---------------------------------------------------------------------------------------------
// The child process

interface Child {
  url: string;
  process: ChildProcess;
  /** Lines the server wrote on stderr (a 500 logs its cause there). */
  stderr: string[];
  memory(): Promise<NodeJS.MemoryUsage>;
  stop(): Promise<void>;
}

function startChild(): Promise<Child> {
  const child = spawn(process.execPath, ['--expose-gc', '--import', TSX, SERVER], {
    cwd: ROOT,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const stderr: string[] = [];
  const waiting: Array<(line: string) => void> = [];
  createInterface({ input: child.stderr! }).on('line', (line) => stderr.push(line));
  const stdout = createInterface({ input: child.stdout! });
  stdout.on('line', (line) => waiting.shift()?.(line));
  const nextLine = (what: string, timeoutMs: number) =>
    new Promise<string>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`no ${what} within ${timeoutMs} ms`)),
        timeoutMs,
      );
      waiting.push((line) => {
        clearTimeout(timer);
        resolve(line);
      });
      child.once('exit', (code) =>
        reject(new Error(`the server exited (${code}): ${stderr.join('\n')}`)),
      );
    });

  return nextLine('listening line', 60_000).then((line) => {
    const match = /^listening (http:\/\/127\.0\.0\.1:\d+)$/.exec(line);
    if (!match) throw new Error(`unexpected first line from the server: ${line}`);
    return {
      url: match[1]!,
      process: child,
      stderr,
      async memory() {
        const answer = nextLine('memory line', 30_000);
        child.stdin!.write('memory\n');
        const reply = await answer;
        if (!reply.startsWith('memory ')) throw new Error(`unexpected line: ${reply}`);
        return JSON.parse(reply.slice('memory '.length)) as NodeJS.MemoryUsage;
      },
      stop: () =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null || child.signalCode !== null) return resolve();
          child.removeAllListeners('exit');
          child.once('exit', () => resolve());
          child.kill('SIGTERM');
          setTimeout(() => child.kill('SIGKILL'), 5_000).unref();
        }),
    };
  });
}

// ---------------------------------------------------------------------------------------------
// The traffic

/** A page of a list, as far as the soak reads it. */
interface Page {
  data: Array<{ id: string }>;
}

async function api<T>(url: string, method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${url}${PREFIX}${path}`, {
    method,
    headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(10_000),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path} -> ${response.status} ${text}`);
  return (text ? JSON.parse(text) : undefined) as T;
}

interface Step {
  name: string;
  expect: number;
  request: autocannon.Request;
}

const JSON_HEADERS = { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' };

/** One cycle of the mixed traffic; each connection runs it over and over. */
function steps(collectionId: string, objectId: string, soakId: string): Step[] {
  const soak = `${PREFIX}/collections/${soakId}/objects`;
  const withCreated =
    (method: 'GET' | 'PATCH' | 'DELETE', body?: string) =>
    (request: autocannon.Request, context: { id?: string }) =>
      context.id ? { ...request, method, path: `${soak}/${context.id}`, body } : undefined;
  return [
    {
      name: 'list collections',
      expect: 200,
      request: { method: 'GET', path: `${PREFIX}/collections?limit=20` },
    },
    {
      name: 'get collection',
      expect: 200,
      request: { method: 'GET', path: `${PREFIX}/collections/${collectionId}` },
    },
    {
      name: 'get object',
      expect: 200,
      request: { method: 'GET', path: `${PREFIX}/collections/${collectionId}/objects/${objectId}` },
    },
    {
      name: 'list objects',
      expect: 200,
      request: { method: 'GET', path: `${PREFIX}/collections/${collectionId}/objects?limit=10` },
    },
    {
      name: 'search',
      expect: 200,
      request: {
        method: 'POST',
        path: `${PREFIX}/search`,
        body: JSON.stringify({ query: 'billing security', limit: 10 }),
      },
    },
    {
      name: 'create object',
      expect: 201,
      request: {
        method: 'POST',
        path: soak,
        body: JSON.stringify({ content: { title: 'soak object', tags: ['soak', 'load'] } }),
        onResponse: (status, body, context: { id?: string }) => {
          context.id = status === 201 ? (JSON.parse(body) as { id: string }).id : undefined;
        },
      },
    },
    {
      name: 'get created object',
      expect: 200,
      request: { setupRequest: withCreated('GET') as autocannon.Request['setupRequest'] },
    },
    {
      name: 'patch created object',
      expect: 200,
      request: {
        setupRequest: withCreated(
          'PATCH',
          JSON.stringify({ content: { seen: true } }),
        ) as autocannon.Request['setupRequest'],
      },
    },
    {
      name: 'delete created object',
      expect: 204,
      request: { setupRequest: withCreated('DELETE') as autocannon.Request['setupRequest'] },
    },
    {
      name: '401 without a key',
      expect: 401,
      request: { method: 'GET', path: `${PREFIX}/collections`, headers: {} },
    },
    {
      name: '400 bad limit',
      expect: 400,
      request: { method: 'GET', path: `${PREFIX}/collections?limit=0` },
    },
    {
      name: '400 malformed JSON',
      expect: 400,
      request: { method: 'POST', path: `${PREFIX}/collections`, body: '{"name":' },
    },
    {
      name: '404 unknown collection',
      expect: 404,
      request: { method: 'GET', path: `${PREFIX}/collections/col_00000000000000000000` },
    },
  ];
}

interface Driven {
  result: autocannon.Result;
  /** Responses whose status was not the step's expected one, by step name. */
  unexpected: Map<string, number>;
  stoppedByLimit: boolean;
}

/** Drives `amount` requests of the mixed traffic, stopping at `limitMs` at the latest. */
async function drive(url: string, cycle: Step[], amount: number, limitMs: number) {
  const unexpected = new Map<string, number>();
  const requests = cycle.map((step) => {
    const previous = step.request.onResponse as
      ((status: number, body: string, context: object, headers: unknown) => void) | undefined;
    return {
      headers: JSON_HEADERS,
      ...step.request,
      onResponse: (status: number, body: string, context: object, headers: unknown) => {
        if (status !== step.expect) unexpected.set(step.name, (unexpected.get(step.name) ?? 0) + 1);
        previous?.(status, body, context, headers);
      },
    } as autocannon.Request;
  });
  let stoppedByLimit = false;
  let timer: NodeJS.Timeout | undefined;
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      { url, connections: CONNECTIONS, amount, timeout: 10, requests },
      (error, done) => (error ? reject(error) : resolve(done)),
    );
    timer = setTimeout(() => {
      stoppedByLimit = true;
      instance.stop();
    }, limitMs);
  }).finally(() => clearTimeout(timer));
  return { result, unexpected, stoppedByLimit } satisfies Driven;
}

/** Deletes whatever a cut-off cycle left in the soak collection, so memory compares like for like. */
async function cleanUp(url: string, soakId: string): Promise<number> {
  let deleted = 0;
  for (let round = 0; round < 100; round++) {
    const page = await api<Page>(url, 'GET', `/collections/${soakId}/objects?limit=100`);
    if (page.data.length === 0) break;
    for (const object of page.data) {
      await api<undefined>(url, 'DELETE', `/collections/${soakId}/objects/${object.id}`);
      deleted++;
    }
  }
  return deleted;
}

// ---------------------------------------------------------------------------------------------
// Report

const fmt = (n: number, digits = 0) =>
  n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
const mib = (bytes: number) => `${fmt(bytes / 1_048_576, 1)} MiB`;
const change = (after: number, before: number) => (after - before) / before;
const pct = (ratio: number) => `${ratio >= 0 ? '+' : ''}${fmt(ratio * 100, 1)}%`;

interface Row {
  metric: string;
  value: string;
  target?: string;
  ok?: boolean;
}

function printTable(rows: Row[]): void {
  const cells = rows.map((r) => [
    r.metric,
    r.value,
    r.target ?? '',
    r.ok === undefined ? '' : r.ok ? 'ok' : 'MISSED',
  ]);
  const header = ['metric', 'value', 'target', ''];
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i]!.length)));
  const line = (c: string[]) => `| ${c.map((x, i) => x.padEnd(widths[i]!)).join(' | ')} |`;
  console.log(
    [line(header), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...cells.map(line)].join(
      '\n',
    ),
  );
}

async function main(): Promise<number> {
  console.log(
    `soak: ${fmt(WARMUP)} warm-up + ${fmt(AMOUNT)} mixed requests, ${CONNECTIONS} connections` +
      ` (limit ${RUN_LIMIT_MS / 1000} s)`,
  );
  const child = await startChild();
  try {
    const [first] = (await api<Page>(child.url, 'GET', '/collections?limit=1')).data;
    const [object] = (
      await api<Page>(child.url, 'GET', `/collections/${first!.id}/objects?limit=1`)
    ).data;
    const soak = await api<{ id: string }>(child.url, 'POST', '/collections', {
      name: `soak ${Date.now()}`,
    });
    const cycle = steps(first!.id, object!.id, soak.id);

    const warm = await drive(child.url, cycle, WARMUP, WARMUP_LIMIT_MS);
    await cleanUp(child.url, soak.id);
    const before = await child.memory();
    const started = performance.now();
    const run = await drive(child.url, cycle, AMOUNT, RUN_LIMIT_MS);
    const seconds = (performance.now() - started) / 1000;
    const leftovers = await cleanUp(child.url, soak.id);
    const after = await child.memory();

    const r = run.result;
    const answered = r['1xx'] + r['2xx'] + r['3xx'] + r['4xx'] + r['5xx'];
    const unexpected = [...run.unexpected.values()].reduce((a, b) => a + b, 0);
    const warmProblems =
      warm.result.errors +
      warm.result['5xx'] +
      [...warm.unexpected.values()].reduce((a, b) => a + b, 0);
    const rows: Row[] = [
      {
        metric: 'requests answered',
        value: fmt(answered),
        target: `${fmt(AMOUNT)}`,
        ok: answered >= AMOUNT && !run.stoppedByLimit,
      },
      {
        metric: 'duration',
        value: `${fmt(seconds, 1)} s`,
        target: `< ${RUN_LIMIT_MS / 1000} s`,
        ok: !run.stoppedByLimit,
      },
      { metric: 'requests/s (mean)', value: fmt(r.requests.average) },
      { metric: 'latency p50', value: `${fmt(r.latency.p50, 1)} ms` },
      { metric: 'latency p99', value: `${fmt(r.latency.p99, 1)} ms` },
      { metric: 'latency max', value: `${fmt(r.latency.max, 1)} ms` },
      { metric: '2xx', value: fmt(r['2xx']) },
      { metric: '4xx (401, 400, 404 by design)', value: fmt(r['4xx']) },
      {
        metric: '1xx / 3xx',
        value: `${fmt(r['1xx'])} / ${fmt(r['3xx'])}`,
        target: '0',
        ok: r['1xx'] + r['3xx'] === 0,
      },
      { metric: '5xx', value: fmt(r['5xx']), target: '0', ok: r['5xx'] === 0 },
      {
        metric: 'unexpected statuses',
        value: unexpected ? [...run.unexpected].map(([k, v]) => `${k}: ${v}`).join(', ') : '0',
        target: '0',
        ok: unexpected === 0,
      },
      { metric: 'errors (connection)', value: fmt(r.errors), target: '0', ok: r.errors === 0 },
      { metric: 'timeouts', value: fmt(r.timeouts), target: '0', ok: r.timeouts === 0 },
      {
        metric: 'dropped / reset pipelines',
        value: fmt(r.resets),
        target: '0',
        ok: r.resets === 0,
      },
      {
        metric: 'server stderr lines',
        value: fmt(child.stderr.length),
        target: '0',
        ok: child.stderr.length === 0,
      },
      {
        metric: 'warm-up problems',
        value: fmt(warmProblems),
        target: '0',
        ok: warmProblems === 0 && !warm.stoppedByLimit,
      },
      { metric: 'objects left by cut-off cycles', value: fmt(leftovers) },
      {
        metric: 'RSS after warm-up -> after run',
        value: `${mib(before.rss)} -> ${mib(after.rss)} (${pct(change(after.rss, before.rss))})`,
        target: `<= +${MEMORY_TOLERANCE * 100}%`,
        ok: change(after.rss, before.rss) <= MEMORY_TOLERANCE,
      },
      {
        metric: 'heap used after warm-up -> after run',
        value: `${mib(before.heapUsed)} -> ${mib(after.heapUsed)} (${pct(change(after.heapUsed, before.heapUsed))})`,
        target: `<= +${MEMORY_TOLERANCE * 100}%`,
        ok: change(after.heapUsed, before.heapUsed) <= MEMORY_TOLERANCE,
      },
    ];
    printTable(rows);
    if (child.stderr.length > 0)
      console.log(`server stderr:\n${child.stderr.slice(0, 20).join('\n')}`);
    const missed = rows.filter((row) => row.ok === false).map((row) => row.metric);
    console.log(missed.length ? `soak: MISSED ${missed.join(', ')}` : 'soak: every target met');
    return missed.length ? 1 : 0;
  } finally {
    await child.stop();
  }
}

// The whole soak is bounded too: a hang anywhere ends it.
const watchdog = setTimeout(
  () => {
    console.error('soak: did not finish in time');
    process.exit(2);
  },
  WARMUP_LIMIT_MS + RUN_LIMIT_MS + 120_000,
);
watchdog.unref();

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error(`soak: could not run: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 2;
  },
);
