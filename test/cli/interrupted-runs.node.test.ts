/**
 * Ctrl-C or CI's cancel during a destructive run: the first signal stops new work, the run
 * deletes what it made, says so, and exits as a shell reports the signal. One case per command
 * here; the matrix of signals and moments is in test/contract/proofs/interrupted-runs.
 */
import { describe, expect, it } from 'vitest';
import { interruptedRun } from '../support/interrupted-run.ts';

describe('an interrupted destructive run cleans up and says so', () => {
  it('the suite, on SIGINT after its 4th create: exit 130, nothing left, "Left behind: nothing"', async () => {
    const run = await interruptedRun({ command: 'suite', signal: 'SIGINT', afterCreates: 4 });
    expect(run.code, run.stderr).toBe(130);
    expect(run.stderr).toContain('SIGINT: stopping, and deleting what the run created');
    expect(run.stdout).toMatch(/^Interrupted by SIGINT: \d+ checks not judged\.$/m);
    expect(run.stdout).toContain('Left behind: nothing');
    expect(run.left).toEqual([]);
  }, 60_000);

  it('explore, on SIGTERM after its 4th create: exit 143, nothing left, never AGREED', async () => {
    const run = await interruptedRun({ command: 'explore', signal: 'SIGTERM', afterCreates: 4 });
    expect(run.code, run.stderr).toBe(143);
    expect(run.stdout).toMatch(/^INTERRUPTED: /m);
    expect(run.stdout).not.toMatch(/^AGREED/m);
    expect(run.stdout).toContain('Left behind: nothing');
    expect(run.left).toEqual([]);
  }, 60_000);

  it('replay, on SIGINT after its 4th create: exit 130, nothing left, the tests not replayed named', async () => {
    const run = await interruptedRun({ command: 'replay', signal: 'SIGINT', afterCreates: 4 });
    expect(run.code, run.stderr).toBe(130);
    expect(run.stdout).toMatch(/not replayed \(interrupted before it began\)/);
    expect(run.stdout).toMatch(/not replayed \(interrupted after \d of 9 exchanges\)/);
    expect(run.stdout).toMatch(/^Interrupted by SIGINT\.$/m);
    expect(run.stdout).toContain('Left behind: nothing');
    expect(run.left).toEqual([]);
  }, 60_000);
});
