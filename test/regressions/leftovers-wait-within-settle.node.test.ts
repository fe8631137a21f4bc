/**
 * Found by describing the spec-only server (test/spec-only, issue 48): its collection delete
 * removes the objects from gets a moment later (a background cascade, within 300 ms). The clean-up
 * looked for the run's objects within `--settle`, but `Settle.until` asked again only after a
 * failed check or a divergence, not after the look-back's own "still found": it looked once, at
 * once, and reported every object of the run left behind (10 of 10) on a server that had removed
 * them all 300 ms later.
 */
import { afterEach, expect, it } from 'vitest';
import { CHECKS } from '../../src/contract/checks/index.ts';
import { runContract } from '../../src/contract/runner.ts';
import { loadTargetFile } from '../../src/contract/target-api/load.ts';
import { startSpecOnlyServer, type SpecOnlyServer } from '../spec-only/server.ts';

let server: SpecOnlyServer | undefined;
afterEach(() => server?.close());

it('reports nothing left behind when a delayed cascade completes within --settle', async () => {
  server = await startSpecOnlyServer({});
  const { alpha, beta } = server.keys;
  const report = await runContract({
    baseUrl: server.url,
    keys: { full: alpha.full, readonly: alpha.readOnly, otherAccount: beta.full },
    checks: CHECKS.filter((check) => check.id === 'delete.cascade'),
    destructive: true,
    description: await loadTargetFile(
      new URL('../spec-only/target.yaml', import.meta.url).pathname,
    ),
    settleMs: 5_000,
  });
  expect(report.results.map((r) => [r.id, r.outcome])).toEqual([['delete.cascade', 'pass']]);
  expect(report.leftBehind).toEqual([]);
}, 30_000);
