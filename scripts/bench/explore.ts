/**
 * `answers-contract explore` against the local mock (started empty, in its own process): how many
 * sequences and requests a second it sustains, for three seeds, beside the contract suite's own
 * request rate against the same mock in the same run (the baseline).
 */
import { startExploreModel } from '../../src/bin/mock-target.ts';
import { explore } from '../../src/contract/explore/explore.ts';
import { CHECKS } from '../../src/contract/checks/index.ts';
import { runContract } from '../../src/contract/runner.ts';
import { start, stop } from './processes.ts';
import { KEYS, QUICK, TSX } from './settings.ts';
import { fmt, table } from './tables.ts';

const BUDGET_MS = QUICK ? 3_000 : 10_000;

/**
 * Against a target 50 ms away (`answers-mock --latency 50`), where waiting, not work, is the
 * cost: sequences per minute one at a time (what explore did before sequences ran side by side:
 * the baseline of this run) and side by side within `--concurrency`.
 */
async function sideBySide(): Promise<string> {
  const args = ['--import', TSX, 'src/bin/answers-mock.ts', '--port', '0', '--quiet', '--empty'];
  const mock = await start([...args, '--latency', '50']);
  try {
    const rows: string[][] = [
      [
        '--concurrency',
        'seconds',
        'sequences',
        'sequences/min',
        'vs one at a time',
        'requests/min',
        'vs one at a time',
      ],
    ];
    let baseline = 0;
    let requestBaseline = 0;
    for (const concurrency of [1, 4, 16, 32]) {
      const report = await explore({
        baseUrl: `${mock.url}/api/answers/v1`,
        keys: KEYS,
        startModel: startExploreModel,
        seed: 1,
        budgetMs: BUDGET_MS,
        maxRequests: Number.MAX_SAFE_INTEGER,
        concurrency,
      });
      const perMinute = (report.sequences * 60_000) / report.elapsedMs;
      // @note Requests too: sequences are as long as fast-check draws them, and a change of
      // their length changes sequences/min without changing how fast explore works.
      const requestsPerMinute = (report.requests * 60_000) / report.elapsedMs;
      if (concurrency === 1) {
        baseline = perMinute;
        requestBaseline = requestsPerMinute;
      }
      rows.push([
        String(concurrency),
        fmt(report.elapsedMs / 1000, 1),
        fmt(report.sequences),
        fmt(perMinute),
        fmt(perMinute / baseline, 1),
        fmt(requestsPerMinute),
        fmt(requestsPerMinute / requestBaseline, 1),
      ]);
    }
    return `${table(rows)}\n\nSeed 1 for ${BUDGET_MS / 1000} s at each \`--concurrency\` against \`answers-mock --empty --latency 50\` (its own process); the run's elapsed time includes the last sequences' clean-up and the look for leftovers. One at a time is what explore did before its sequences ran side by side.`;
  } finally {
    await stop(mock);
  }
}

export async function exploreBench(): Promise<string> {
  return `${await localMock()}\n\n${await sideBySide()}`;
}

async function localMock(): Promise<string> {
  const args = ['--import', TSX, 'src/bin/answers-mock.ts', '--port', '0', '--quiet', '--empty'];
  const mock = await start(args);
  try {
    const baseUrl = `${mock.url}/api/answers/v1`;
    const suiteStarted = performance.now();
    const suite = await runContract({ baseUrl, keys: KEYS, checks: CHECKS, destructive: true });
    const suiteSeconds = (performance.now() - suiteStarted) / 1000;
    const suiteRate = suite.requests / suiteSeconds;
    const rows: string[][] = [
      [
        'seed',
        'level',
        'seconds',
        'sequences',
        'sequences/s',
        'requests',
        'requests/s',
        'vs the suite, requests/s',
        'divergence',
      ],
    ];
    const runs = [
      ...[1, 2, 3].map((seed) => ({ seed, level: 'spec' as const })),
      { seed: 1, level: 'profile' as const },
    ];
    for (const { seed, level } of runs) {
      const report = await explore({
        baseUrl,
        keys: KEYS,
        startModel: startExploreModel,
        seed,
        level,
        budgetMs: BUDGET_MS,
        // Bounded by the time budget alone: the figure is what a second sustains.
        maxRequests: Number.MAX_SAFE_INTEGER,
      });
      const seconds = report.elapsedMs / 1000;
      rows.push([
        String(seed),
        level,
        fmt(seconds, 1),
        fmt(report.sequences),
        fmt(report.sequences / seconds, 1),
        fmt(report.requests),
        fmt(report.requests / seconds),
        fmt(report.requests / seconds / suiteRate, 2),
        report.story ? `${report.story.clause} (${report.story.steps.length} steps)` : 'none',
      ]);
    }
    return (
      `${table(rows)}\n\n` +
      `Each seed explores for ${BUDGET_MS / 1000} s against the mock (\`answers-mock --empty\`, its own process), with the four dev keys; requests count both sides (the target and explore's in-process model). The baseline is the contract suite with \`--destructive\` against the same mock in the same run: ${fmt(suite.requests)} requests in ${fmt(suiteSeconds, 1)} s (${fmt(suiteRate)}/s).`
    );
  } finally {
    await stop(mock);
  }
}
