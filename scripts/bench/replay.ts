/**
 * `answers-contract replay` against the local mock (`answers-mock --empty`, its own process):
 * requests per second replaying a recording of consumer tests, at `--concurrency` 1 and 4,
 * beside explore's requests per second against the same mock in the same run (the baseline).
 */
import { startExploreModel } from '../../src/bin/mock-target.ts';
import { explore } from '../../src/contract/explore/explore.ts';
import { replay } from '../../src/contract/replay/replay.ts';
import { recordFlows } from '../../test/support/recorded-flows.ts';
import { start, stop } from './processes.ts';
import { KEYS, QUICK, TSX } from './settings.ts';
import { fmt, table } from './tables.ts';

const TESTS = QUICK ? 50 : 200;

export async function replayBench(): Promise<string> {
  const recording = await recordFlows(TESTS);
  const exchanges = recording.sequences.reduce((n, s) => n + s.exchanges.length, 0);
  const args = ['--import', TSX, 'src/bin/answers-mock.ts', '--port', '0', '--quiet', '--empty'];
  const mock = await start(args);
  try {
    const baseUrl = `${mock.url}/api/answers/v1`;
    const explored = await explore({
      baseUrl,
      keys: KEYS,
      startModel: startExploreModel,
      seed: 1,
      budgetMs: QUICK ? 3_000 : 10_000,
      maxRequests: Number.MAX_SAFE_INTEGER,
    });
    // @note Requests to the target alone, as replay counts them (walks and clean-up included).
    const exploreRate = (explored.sentToTarget ?? 0) / (explored.elapsedMs / 1000);
    const rows: string[][] = [
      [
        '--concurrency',
        'seconds',
        'tests',
        'divergences',
        'requests to the target',
        'requests/s',
        'vs explore',
      ],
    ];
    for (const concurrency of [1, 4]) {
      const report = await replay({
        baseUrl,
        keys: KEYS,
        recording,
        destructive: true,
        concurrency,
      });
      const seconds = report.elapsedMs / 1000;
      rows.push([
        String(concurrency),
        fmt(seconds, 1),
        fmt(report.sequences.length),
        fmt(report.sequences.filter((s) => s.divergence).length),
        fmt(report.sentToTarget),
        fmt(report.sentToTarget / seconds),
        fmt(report.sentToTarget / seconds / exploreRate, 2),
      ]);
    }
    return (
      `${table(rows)}\n\n` +
      `A recording of ${fmt(TESTS)} consumer tests (${fmt(exchanges)} exchanges, each test the flow of examples/node-tests/collections.test.ts) replayed with \`--destructive\` against \`answers-mock --empty\` (its own process); requests count every request sent to it, walks of the list and clean-up included. The baseline is explore (seed 1, default \`--concurrency\` 4) against the same mock in the same run: ${fmt(explored.sentToTarget ?? 0)} requests to the target in ${fmt(explored.elapsedMs / 1000, 1)} s (${fmt(exploreRate)}/s).`
    );
  } finally {
    await stop(mock);
  }
}
