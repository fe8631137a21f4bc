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
 * Processes per size: every figure of a size is the median over them.
 * @note A size is measured minutes after the one before it, and this machine is shared: with the
 * same code, one seed of 1,000,000 took anywhere from 12 to 20 s, and a delete among 1,000
 * objects 0.031 ms in one run and 0.062 ms in another, which alone moved the ratio of the same
 * delete at 1,000,000 from 1.4× to 3.0×. One process per size would say as much about the
 * neighbours as about the code.
 */
const RUNS = QUICK ? 1 : 3;

function median(values: number[]): number {
  return [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
}

/** Each figure's median over `runs`, and for seeding and reset, their range. */
function medianRun(runs: Figures[]): { figures: Figures; range: (key: string) => string } {
  const figures: Figures = {};
  for (const key of Object.keys(runs[0]!)) figures[key] = median(runs.map((run) => run[key]!));
  const range = (key: string) => {
    const seconds = runs.map((run) => run[key]! / 1000);
    const [min, max] = [Math.min(...seconds), Math.max(...seconds)];
    return min === max ? '' : ` (${fmt(min, 2)}–${fmt(max, 2)})`;
  };
  return { figures, range };
}

export async function dataLayer(): Promise<string> {
  const samples = QUICK ? '100' : '200';
  const runs: Figures[] = [];
  const ranges = new Map<Figures, (key: string) => string>();
  // @note Rounds of every size, not every round of one size: each size is measured in three
  // stretches of the run, as far apart as the run allows.
  const each = SIZES.map((): Figures[] => []);
  for (let round = 0; round < RUNS; round++)
    for (const [i, size] of SIZES.entries())
      each[i]!.push(
        await measure('data-layer-run.ts', ['--objects', String(size), '--samples', samples]),
      );
  for (const sized of each) {
    const { figures, range } = medianRun(sized);
    runs.push(figures);
    ranges.set(figures, range);
  }
  const seconds = (run: Figures, key: 'seedMs' | 'resetMs') =>
    `${fmt(run[key]! / 1000, 2)}${ranges.get(run)!(key)}`;
  const base = runs[0]!;
  const ms = (value: number | undefined, digits = 3) =>
    value === undefined ? '-' : fmt(value, digits);
  /**
   * A write's p50, its ratio to the same write on the reference mock of its own processes, and
   * its ratio to the 1,000 row (other processes).
   */
  const ratio = (run: Figures, write: 'create' | 'update' | 'delete' | 'cascade') => {
    const p50 = run[`${write}P50`];
    const inProcess = run[`${write}Ratio`];
    const apart = p50 === undefined ? undefined : p50 / base[`${write}P50`]!;
    return `${ms(p50)} (${inProcess === undefined ? '-' : fmt(inProcess, 2)}×; ${apart === undefined ? '-' : fmt(apart, 2)}×)`;
  };
  const writes = table([
    [
      'objects (1,000 collections)',
      'create p50 ms',
      'update p50 ms',
      'delete p50 ms',
      'delete a collection of 1,000 p50 ms',
      `seed s${RUNS > 1 ? ' (range)' : ''}`,
      `reset s${RUNS > 1 ? ' (range)' : ''}`,
      'heap B/object beyond JSON',
      'longest request wait during reset ms (/ reset)',
    ],
    ...runs.map((run) => [
      fmt(run.objects!),
      ratio(run, 'create'),
      ratio(run, 'update'),
      ratio(run, 'delete'),
      ratio(run, 'cascade'),
      seconds(run, 'seedMs'),
      seconds(run, 'resetMs'),
      fmt(run.heapPerObject! - run.jsonPerObject!),
      `${ms(run.resetLongestWaitMs, 0)} (${fmt(run.resetLongestWaitMs! / run.resetMs!, 3)})`,
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
  const note =
    (RUNS > 1 ? `Every figure is the median of ${RUNS} processes per size. ` : '') +
    'Beside each write: its ratio to the same write on a mock of 1,000 objects in the same ' +
    'process, interleaved with it (the target), then its ratio to the 1,000 row, measured in ' +
    'processes of its own.\n\n';
  return `${note}${writes}\n\nOne collection:\n\n${single}\n\nIn-process (msw setupServer):\n\n${inProcess}`;
}
