/**
 * Scale: the mock seeded with ever more objects, its memory per object after a full GC, and the
 * latency of one request at a time.
 */
import { fileURLToPath } from 'node:url';
import { scenarios, sequential } from './load.ts';
import { start, stop } from './processes.ts';
import { QUICK, SIZES, TSX } from './settings.ts';
import { fmt, table } from './tables.ts';

export async function scale(): Promise<string> {
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
      fileURLToPath(new URL('mock-server.ts', import.meta.url)),
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
