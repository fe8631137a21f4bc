/**
 * Search at each size: the p50 of kinds of query, the worst single search and the event loop's
 * longest delay while they ran, over objects of one account spread over 1,000 collections.
 * Each size runs in a process of its own (`search-run.ts`).
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { MAX_QUERY_WORDS } from '../../src/core/search/search-index.ts';
import { bundled } from './bundled.ts';
import { QUICK, ROOT, SIZES } from './settings.ts';
import { fmt, table } from './tables.ts';

interface Timing {
  p50: number;
  max: number;
  slowest: number;
  total: number;
}
interface Figures {
  objects: number;
  seedMs: number;
  heapPerObject: number;
  externalPerObject: number;
  jsonPerObject: number;
  searches: Record<string, Timing>;
  stallMs: number;
  cascadeStallMs: number;
  cascadeP50: number;
}

/** One size, in a process of its own, from a bundle made as the bin is (see `bundled.ts`). */
async function measure(objects: number): Promise<Figures> {
  const bundle = await bundled(fileURLToPath(new URL('search-run.ts', import.meta.url)));
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [
        '--expose-gc',
        '--max-old-space-size=8192',
        bundle,
        '--objects',
        String(objects),
        '--samples',
        QUICK ? '30' : '100',
      ],
      { cwd: ROOT, maxBuffer: 1 << 20, timeout: 1_200_000 },
      (error, stdout, stderr) => {
        if (error) return reject(new Error(`search-run.ts ${objects}: ${stderr || error}`));
        resolve(JSON.parse(stdout.trim().split('\n').at(-1)!) as Figures);
      },
    );
  });
}

const QUERIES: Array<[string, string]> = [
  ['twoTags', '"billing security"'],
  ['commonWord', '"the" (64% of objects)'],
  ['rareWord', 'a word of one object'],
  ['threeWords', '3 words'],
  ['tenCollections', '"billing" in 10 collections'],
  ['thirdPage', 'page 3 of "with" (cursor)'],
  ['capCommonWords', `${MAX_QUERY_WORDS} common words (the most a query may have)`],
  ['hundredCommonWords', '100 common words (refused: 400)'],
];

export async function search(): Promise<string> {
  const runs: Figures[] = [];
  for (const size of SIZES) runs.push(await measure(size));
  const ms = (value: number) => fmt(value, value < 10 ? 2 : 1);
  const p50s = table([
    ['query (p50 ms, hits at the largest size)', ...runs.map((run) => fmt(run.objects))],
    ...QUERIES.map(([key, label]) => [
      `${label} (${fmt(runs.at(-1)!.searches[key]!.total)})`,
      ...runs.map((run) => ms(run.searches[key]!.p50)),
    ]),
  ]);
  const worst = table([
    [
      'objects (1,000 collections)',
      'seed s',
      'heap B/object beyond JSON',
      'typed arrays B/object',
      'slowest search ms (which)',
      'event loop max delay ms, searches',
      'delete a collection of 1,000 ms',
      'event loop max delay ms, deletes',
    ],
    ...runs.map((run) => {
      const [name, slowest] = Object.entries(run.searches).sort((a, b) => b[1].max - a[1].max)[0]!;
      const label = QUERIES.find(([key]) => key === name)?.[1] ?? name;
      const which = slowest.slowest === 0 ? 'the first' : `sample ${slowest.slowest + 1}`;
      return [
        fmt(run.objects),
        fmt(run.seedMs / 1000, 1),
        fmt(run.heapPerObject - run.jsonPerObject),
        fmt(run.externalPerObject),
        `${ms(slowest.max)} (${label}, ${which})`,
        ms(run.stallMs),
        ms(run.cascadeP50),
        ms(run.cascadeStallMs),
      ];
    }),
  ]);
  return `${p50s}\n\n${worst}`;
}
