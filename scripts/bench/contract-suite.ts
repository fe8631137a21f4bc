/**
 * The contract suite against the local mock: how long a destructive run takes at each level, on
 * loopback and with 50 ms added to every answer (`--latency 50`, a deployment some way off), one
 * check at a time (`--concurrency 1`) and at the default of 4. The ratio is against the run one
 * at a time with the same latency and level, measured in the same run.
 */
import { CHECKS } from '../../src/contract/checks/index.ts';
import { runContract, type Level } from '../../src/contract/runner.ts';
import { start, stop } from './processes.ts';
import { KEYS, TSX } from './settings.ts';
import { fmt, table } from './tables.ts';

export async function contractSuite(): Promise<string> {
  const rows: string[][] = [
    [
      'latency, ms',
      'level',
      'at once',
      'checks',
      'passed',
      'failed',
      'requests',
      'seconds',
      'vs one at a time',
    ],
  ];
  for (const latency of [0, 50]) {
    const args = ['--import', TSX, 'src/bin/answers-mock.ts', '--port', '0', '--quiet'];
    const mock = await start(latency ? [...args, '--latency', String(latency)] : args);
    try {
      for (const level of ['spec', 'profile'] as Level[]) {
        let serial = 0;
        for (const concurrency of [1, 4]) {
          const began = performance.now();
          const report = await runContract({
            baseUrl: `${mock.url}/api/answers/v1`,
            keys: KEYS,
            checks: CHECKS,
            destructive: true,
            level,
            concurrency,
          });
          const seconds = (performance.now() - began) / 1000;
          if (concurrency === 1) serial = seconds;
          rows.push([
            fmt(latency),
            level,
            fmt(concurrency),
            fmt(report.results.length),
            fmt(report.counts.pass),
            fmt(report.counts.fail),
            fmt(report.requests),
            fmt(seconds, 2),
            fmt(seconds / serial, 2),
          ]);
        }
      }
    } finally {
      await stop(mock);
    }
  }
  return table(rows);
}
