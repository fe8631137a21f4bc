/**
 * The data layer in-process: writes at each size as a ratio to the same write at 1,000 objects,
 * seeding and reset, one large collection, and the mock under msw `setupServer` (reset, a GET
 * against a plain msw handler, the heap over rounds). Each size runs in a process of its own.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { bundled } from './bundled.ts';
import { QUICK, ROOT, SIZES, TSX } from './settings.ts';
import { fmt, table } from './tables.ts';

type Figures = Record<string, number>;

/**
 * Runs a script of this folder in a process of its own and reads the JSON line it prints last.
 * @note `data-layer-run.ts` runs from a bundle made as the bin is (`bundled.ts`): the code users
 * run, not tsx's transform, which wraps every closure in a naming call (a load of 1,000,000
 * objects took about a tenth longer through it). `msw-run.ts` compares the kit with a plain msw
 * handler in one process, so it runs through tsx as a test runner would run both.
 */
async function measure(script: string, args: string[]): Promise<Figures> {
  const entry = fileURLToPath(new URL(script, import.meta.url));
  const run = script === 'data-layer-run.ts' ? [await bundled(entry)] : ['--import', TSX, entry];
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      ['--expose-gc', '--max-old-space-size=8192', ...run, ...args],
      { cwd: ROOT, maxBuffer: 1 << 20, timeout: 1_200_000 },
      (error, stdout, stderr) => {
        if (error) return reject(new Error(`${script} ${args.join(' ')}: ${stderr || error}`));
        resolve(JSON.parse(stdout.trim().split('\n').at(-1)!) as Figures);
      },
    );
  });
}

/**
 * The median of a load's figure over the full run and the load-only runs, with the range.
 * @note Seeding a million objects is bound by memory, and on a machine shared with other work
 * its wall time moved between 14 and 20 s from one run to the next with the same code; one run
 * would say as much about the neighbours as about the code.
 */
function median(values: number[]): { median: number; min: number; max: number } {
  const sorted = [...values].sort((a, b) => a - b);
  return { median: sorted[Math.floor(sorted.length / 2)]!, min: sorted[0]!, max: sorted.at(-1)! };
}

/** Processes that time each size's seeding and reset, beside the full run. */
const LOAD_RUNS = QUICK ? 0 : 2;

export async function dataLayer(): Promise<string> {
  const samples = QUICK ? '100' : '200';
  const runs: Figures[] = [];
  const loads = new Map<Figures, Figures[]>();
  for (const size of SIZES) {
    const run = await measure('data-layer-run.ts', [
      '--objects',
      String(size),
      '--samples',
      samples,
    ]);
    runs.push(run);
    const more: Figures[] = [];
    for (let i = 0; i < LOAD_RUNS; i++)
      more.push(await measure('data-layer-run.ts', ['--objects', String(size), '--load-only']));
    loads.set(run, [run, ...more]);
  }
  const seconds = (run: Figures, key: 'seedMs' | 'resetMs') => {
    const { median: mid, min, max } = median(loads.get(run)!.map((each) => each[key]! / 1000));
    return min === max ? fmt(mid, 2) : `${fmt(mid, 2)} (${fmt(min, 2)}–${fmt(max, 2)})`;
  };
  const base = runs[0]!;
  const ms = (value: number | undefined, digits = 3) =>
    value === undefined ? '-' : fmt(value, digits);
  const ratio = (run: Figures, key: string) =>
    `${ms(run[key])} (${fmt(run[key]! / base[key]!, 2)}×)`;
  const writes = table([
    [
      'objects (1,000 collections)',
      'create p50 ms',
      'update p50 ms',
      'delete p50 ms',
      'delete a collection of 1,000 p50 ms',
      `seed s${LOAD_RUNS ? `, median of ${LOAD_RUNS + 1} runs (range)` : ''}`,
      `reset s${LOAD_RUNS ? `, median of ${LOAD_RUNS + 1} runs (range)` : ''}`,
      'heap B/object beyond JSON',
    ],
    ...runs.map((run) => [
      fmt(run.objects!),
      ratio(run, 'createP50'),
      ratio(run, 'updateP50'),
      ratio(run, 'deleteP50'),
      ratio(run, 'cascadeP50'),
      seconds(run, 'seedMs'),
      seconds(run, 'resetMs'),
      fmt(run.heapPerObject! - run.jsonPerObject!),
    ]),
  ]);
  const oneSize = QUICK ? 10_000 : 100_000;
  const one = await measure('data-layer-run.ts', [
    '--objects',
    String(oneSize),
    '--one-collection',
    '--samples',
    samples,
  ]);
  const single = table([
    ['objects in one collection', 'update p50 ms', 'delete p50 ms'],
    [fmt(oneSize), ms(one.updateP50), ms(one.deleteP50)],
  ]);
  const msw = await measure('msw-run.ts', []);
  const inProcess = table([
    [
      'reset() default data p50 ms',
      'GET through the kit ms',
      'GET, plain msw handler ms',
      'kit / plain',
      'heap round 10 / round 1',
    ],
    [
      ms(msw.resetP50, 2),
      ms(msw.kitGetMs),
      ms(msw.plainGetMs),
      fmt(msw.kitGetMs! / msw.plainGetMs!, 2),
      fmt(msw.heapLast! / msw.heapFirst!, 3),
    ],
  ]);
  return `${writes}\n\nOne collection:\n\n${single}\n\nIn-process (msw setupServer):\n\n${inProcess}`;
}
