/** The contract suite against the local mock: how many checks, and how long the run takes. */
import { CHECKS } from '../../src/contract/checks/index.ts';
import { runContract } from '../../src/contract/runner.ts';
import { start, stop } from './processes.ts';
import { KEY, TSX } from './settings.ts';
import { fmt, table } from './tables.ts';

export async function contractSuite(): Promise<string> {
  const mock = await start(['--import', TSX, 'src/bin/answers-mock.ts', '--port', '0', '--quiet']);
  try {
    const began = performance.now();
    const report = await runContract({
      baseUrl: `${mock.url}/api/answers/v1`,
      keys: {
        full: KEY,
        readonly: 'answers_test_readonly_acme',
        otherAccount: 'answers_test_full_globex',
        inactive: 'answers_test_inactive_acme',
      },
      checks: CHECKS,
      destructive: true,
    });
    const seconds = (performance.now() - began) / 1000;
    return table([
      ['checks', 'passed', 'failed', 'seconds'],
      [
        fmt(report.results.length),
        fmt(report.counts.pass),
        fmt(report.counts.fail),
        fmt(seconds, 2),
      ],
    ]);
  } finally {
    await stop(mock);
  }
}
