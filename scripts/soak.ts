/**
 * `npm run soak` (`-- --quick` for 20,000 requests): a soak test of the mock server, not a unit
 * test. It starts the server in a child process (scripts/soak/server.ts, --expose-gc) on
 * 127.0.0.1, warms it up with 10,000 requests, then drives 200,000 mixed requests (reads, search,
 * create/patch/delete of objects, 401s, 400s, 404s) over 64 connections with autocannon, and
 * checks the targets: every request answered with its expected status, no 5xx, no errors,
 * timeouts or dropped connections, nothing on the server's stderr, and memory after the run
 * (after GC) within 10% of memory after the warm-up. Prints a table; exits 1 when a target is
 * missed, 2 when the soak could not run. Every phase is bounded in requests and in time. The
 * parts are in scripts/soak/.
 */
import { change, fmt, mib, pct, printTable, type Row } from './soak/report.ts';
import { startChild } from './soak/server-process.ts';
import {
  AMOUNT,
  CONNECTIONS,
  MEMORY_TOLERANCE,
  RUN_LIMIT_MS,
  WARMUP,
  WARMUP_LIMIT_MS,
} from './soak/settings.ts';
import { api, cleanUp, drive, steps, type Page } from './soak/traffic.ts';

if (process.argv.includes('--help')) {
  console.log(`Usage: npm run soak [-- --quick]

Soaks the mock server in a child process: ${fmt(WARMUP)} warm-up requests, then ${fmt(AMOUNT)} mixed
requests over ${CONNECTIONS} connections, and checks every target (expected statuses, no 5xx, no
errors, memory after the run within ${MEMORY_TOLERANCE * 100}% of memory after the warm-up).
Exits 0 when every target is met, 1 when one is missed, 2 when the soak could not run.

  --quick  20,000 requests instead of 200,000
  --help   this text`);
  process.exit(0);
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
