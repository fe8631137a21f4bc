/**
 * Recording: what `answers-mock --record` costs an answer, and whether that cost grows with the
 * session. 10,000 small GETs, one at a time, through the real CLI, without and with `--record`;
 * the median answer time of the first 200, of the last 200 and of all, and the ratios between
 * them (and between the medians of each tenth, which the machine's noise moves less). A recording rewritten at each exchange made the 6,000th answer 14 times slower than the
 * first; one appended to keeps the last 200 near the first 200.
 */
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { start, stop } from './processes.ts';
import { KEY, QUICK, TSX } from './settings.ts';
import { fmt, table } from './tables.ts';

const REQUESTS = QUICK ? 2_000 : 10_000;
const EDGE = 200;
/** GETs sent first and not counted: the JIT's warm-up would make the first 200 look slow. */
const WARM_UP = 500;
const BUCKETS = 10;

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
};

/** Each answer time, in ms, of `REQUESTS` GETs one after another, against a mock with `extra`. */
async function answerTimes(extra: string[]): Promise<number[]> {
  const mock = await start([
    '--import',
    TSX,
    'src/bin/answers-mock.ts',
    '--port',
    '0',
    '--quiet',
    ...extra,
  ]);
  try {
    const url = `${mock.url}/api/answers/v1/collections?limit=1`;
    const headers = { authorization: `Bearer ${KEY}` };
    const times: number[] = [];
    for (let i = 0; i < WARM_UP + REQUESTS; i++) {
      const began = performance.now();
      const response = await fetch(url, { headers });
      await response.arrayBuffer();
      if (response.status !== 200) throw new Error(`GET answered ${response.status}`);
      if (i >= WARM_UP) times.push(performance.now() - began);
    }
    return times;
  } finally {
    await stop(mock);
  }
}

export async function recording(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'answers-bench-record-'));
  try {
    const file = join(dir, 'session.jsonl');
    const without = await answerTimes([]);
    const withRecord = await answerTimes(['--record', file]);
    const bytes = (await stat(file)).size;
    const row = (name: string, times: number[]) => {
      const first = median(times.slice(0, EDGE));
      const last = median(times.slice(-EDGE));
      const size = times.length / BUCKETS;
      const buckets = Array.from({ length: BUCKETS }, (_, b) =>
        median(times.slice(b * size, (b + 1) * size)),
      );
      return [
        name,
        fmt(first, 2),
        fmt(last, 2),
        fmt(last / first, 2),
        fmt(Math.max(...buckets) / buckets[0]!, 2),
        fmt(median(times), 2),
        fmt(median(times) / median(without), 2),
      ];
    };
    return table([
      [
        `${REQUESTS.toLocaleString('en')} GETs, one at a time, after ${WARM_UP} not counted`,
        `median ms, first ${EDGE}`,
        `median ms, last ${EDGE}`,
        'last / first',
        `slowest tenth / first tenth (medians)`,
        'median ms, all',
        'vs no --record',
      ],
      row('no --record', without),
      row(
        `--record (each line written before its answer; file ${fmt(bytes / 2 ** 20, 1)} MiB after)`,
        withRecord,
      ),
    ]);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
