/**
 * `answers-contract snapshot` and `diff` against a deployment 5 ms away: the mock with generated
 * data (`answers-mock --size`, its own process) behind a proxy that holds each request 5 ms.
 * Snapshot: its time, requests and the CLI's peak memory, against the baselines of the same run
 * (every list page of the same data read by a bare loop of fetches through the same proxy; the
 * command's own peak memory doing nothing but `--help`). Loading: the snapshot into the mock
 * (`createMock({ initialState })`) against the same number of objects generated. Diff: over a
 * snapshot of 10,000 objects, its time and requests against that snapshot's own.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMock } from '../../src/index.ts';
import { generateState } from '../../src/seed/generate-state.ts';
import { startProxy } from '../../test/support/proxy.ts';
import { bundled } from './bundled.ts';
import { start, stop } from './processes.ts';
import { KEYS, QUICK, ROOT, TSX } from './settings.ts';
import { fmt, table } from './tables.ts';

const SIZE = QUICK ? 10_000 : 100_000;
const DIFF_SIZE = 10_000;
const AWAY_MS = 5;

/** Runs the bundled `answers-contract` with `args`: its time, output and peak RSS (MiB). */
function contract(bin: string, args: string[]) {
  // @note The peak resident set of the process itself, VmHWM: getrusage's maxRSS starts from
  // the parent's (this bench holds 100,000 objects) and would report that instead.
  const report =
    "import{readFileSync}from'node:fs';process.on('exit',()=>process.stderr.write('peak '+/VmHWM:\\s+(\\d+)/.exec(readFileSync('/proc/self/status','utf8'))[1]+'\\n'))";
  return new Promise<{ seconds: number; stdout: string; peakMiB: number; code: number }>(
    (resolve) => {
      const began = performance.now();
      const child = spawn(
        process.execPath,
        ['--import', `data:text/javascript,${report}`, bin, ...args],
        {
          cwd: ROOT,
        },
      );
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      child.on('close', (code) => {
        const kib = Number(/peak (\d+)/.exec(stderr)?.[1] ?? NaN);
        resolve({
          seconds: (performance.now() - began) / 1000,
          stdout,
          peakMiB: kib / 1024,
          code: code ?? -1,
        });
      });
    },
  );
}

/** Every page of every list, read by a loop of fetches: what any crawl must at least wait for. */
async function bareWalk(root: string): Promise<{ seconds: number; requests: number }> {
  const began = performance.now();
  let requests = 0;
  const headers = { authorization: `Bearer ${KEYS.full}` };
  const walk = async (path: string) => {
    const items: Array<{ id: string }> = [];
    let cursor: string | null = null;
    do {
      const url = `${root}${path}?limit=100${cursor ? `&cursor=${cursor}` : ''}`;
      const page = (await (await fetch(url, { headers })).json()) as {
        data: Array<{ id: string }>;
        next_cursor: string | null;
      };
      requests += 1;
      items.push(...page.data);
      cursor = page.next_cursor;
    } while (cursor);
    return items;
  };
  for (const collection of await walk('/collections'))
    await walk(`/collections/${collection.id}/objects`);
  return { seconds: (performance.now() - began) / 1000, requests };
}

const requestsOf = (stdout: string) => Number(/in (\d+) requests/.exec(stdout)?.[1] ?? NaN);

export async function snapshotBench(): Promise<string> {
  const bin = await bundled(join(ROOT, 'src/bin/answers-contract.ts'));
  const dir = await mkdtemp(join(tmpdir(), 'answers-bench-snapshot-'));
  const mock = await start([
    '--import',
    TSX,
    'src/bin/answers-mock.ts',
    '--port',
    '0',
    '--quiet',
    '--size',
    String(SIZE),
  ]);
  const proxy = await startProxy(mock.url, { delayMs: AWAY_MS });
  try {
    const root = `${proxy.url}/api/answers/v1`;
    const common = [
      '--base-url',
      root,
      '--api-key',
      KEYS.full,
      '--other-account-key',
      KEYS.otherAccount,
    ];
    const idle = await contract(bin, ['snapshot', '--help']);
    const bare = await bareWalk(root);
    const out = join(dir, 'big.json');
    const whole = await contract(bin, [
      'snapshot',
      ...common,
      ...[
        '--out',
        out,
        '--max-objects',
        String(SIZE),
        '--max-objects-per-collection',
        String(SIZE),
      ],
    ]);
    if (whole.code !== 0) throw new Error(`snapshot exited ${whole.code}: ${whole.stdout}`);
    const objects = Number(/, (\d+) objects, in/.exec(whole.stdout)?.[1] ?? NaN);

    // Loading: the snapshot into a mock, against as many objects generated (its own seed).
    const state = JSON.parse(await readFile(out, 'utf8')) as unknown;
    let began = performance.now();
    await createMock({ initialState: state as never });
    const loadSeconds = (performance.now() - began) / 1000;
    const generated = generateState({ objects });
    began = performance.now();
    await createMock({ initialState: generated });
    const generatedSeconds = (performance.now() - began) / 1000;

    // Diff: over a snapshot of 10,000 objects.
    const small = join(dir, 'small.json');
    const snapSmall = await contract(bin, [
      'snapshot',
      ...common,
      '--out',
      small,
      '--max-objects',
      String(DIFF_SIZE),
    ]);
    const diffed = await contract(bin, [
      'diff',
      ...common,
      '--snapshot',
      small,
      '--json',
      join(dir, 'diff.json'),
    ]);
    const report = JSON.parse(await readFile(join(dir, 'diff.json'), 'utf8')) as {
      compared: { objects: number };
      requests: { deployment: number; mock: number };
      differences: unknown[];
    };
    const rows = [
      ['run', 'objects', 'seconds', 'requests to the deployment', 'peak MiB', 'vs baseline'],
      [
        'bare walk of every list page (baseline of time)',
        fmt(SIZE),
        fmt(bare.seconds, 1),
        fmt(bare.requests),
        '',
        '1.00',
      ],
      [
        '`snapshot`, every object',
        fmt(objects),
        fmt(whole.seconds, 1),
        fmt(requestsOf(whole.stdout)),
        fmt(whole.peakMiB),
        fmt(whole.seconds / bare.seconds, 2),
      ],
      [
        '`snapshot --help` (baseline of memory)',
        '',
        fmt(idle.seconds, 2),
        '0',
        fmt(idle.peakMiB),
        '',
      ],
      [
        '`snapshot` of 10,000 objects',
        fmt(DIFF_SIZE),
        fmt(snapSmall.seconds, 1),
        fmt(requestsOf(snapSmall.stdout)),
        fmt(snapSmall.peakMiB),
        '',
      ],
      [
        '`diff` over that snapshot',
        fmt(report.compared.objects),
        fmt(diffed.seconds, 1),
        fmt(report.requests.deployment),
        fmt(diffed.peakMiB),
        `${fmt(diffed.seconds / snapSmall.seconds, 1)} × the snapshot`,
      ],
    ];
    const loads = [
      ['load into the mock', 'objects', 'seconds', 'vs generated'],
      [
        '`createMock({ initialState })` of the snapshot',
        fmt(objects),
        fmt(loadSeconds, 2),
        fmt(loadSeconds / generatedSeconds, 2),
      ],
      [
        'the same number generated (`generateState`, baseline)',
        fmt(generated.objects.length),
        fmt(generatedSeconds, 2),
        '1.00',
      ],
    ];
    return (
      `${table(rows)}\n\n${table(loads)}\n\n` +
      `The deployment is \`answers-mock --size ${fmt(SIZE)}\` (its own process) behind a proxy in the bench's process that holds each request ${AWAY_MS} ms. \`snapshot\` reads every page of both lists at the default \`--concurrency\` (its walks go one page after another); its peak memory is the command's resident set at exit, ${fmt(whole.peakMiB / idle.peakMiB, 1)} × that of \`--help\`. \`diff\` sends the same reads to the deployment and to the mock in its process (each list at two page sizes, a get of each object, ${fmt(report.compared.objects)} objects) and found ${fmt(report.differences.length)} differences (the mock against its own copy).`
    );
  } finally {
    await proxy.close();
    await stop(mock);
    await rm(dir, { recursive: true, force: true });
  }
}
