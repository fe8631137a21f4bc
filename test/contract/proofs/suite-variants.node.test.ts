/**
 * Does the suite catch each seeded variant of the independent server (test/independent/
 * variants.ts), and fail nothing else but what its one broken rule explains? One run per variant;
 * deep tier (test/README.md), with the kill matrix. The correct server's runs are in
 * test/independent/independent.node.test.ts (engine tier).
 */
import { describe, expect, it } from 'vitest';
import { failedSpecIds, reportOf, ROWS, run } from '../../independent/suite-runs.ts';

describe('each seeded variant', () => {
  it.each(ROWS)(
    '$variant fails the run, caught by $caughtBy',
    async (row) => {
      const report = await reportOf(row);
      expect(report.failed).toBe(true);
      expect(failedSpecIds(report)).toContain(row.caughtBy);
    },
    60_000,
  );

  it.each(ROWS)(
    '$variant fails no check but those its one broken rule explains',
    async (row) => {
      const expected = [row.caughtBy, ...(row.alsoFails ?? [])];
      expect(failedSpecIds(await reportOf(row)).sort()).toEqual(expected.sort());
    },
    60_000,
  );

  it('bearer-refused, run destructively, goes on with X-Answers-API-Key and fails only the Bearer check', async () => {
    // @note One stated form refused is a failed check, not a set-up error: the suite presents its
    // own key in the form the target accepts.
    const report = await run('bearer-refused', { destructive: true });
    expect(failedSpecIds(report)).toEqual(['auth.bearer-accepted']);
    expect(report.leftBehind).toEqual([]);
  }, 60_000);
});
