/**
 * The matrix of interruptions against a mock 50 ms away: SIGINT and SIGTERM early, midway and late
 * (after the target's 1st, 5th and 12th create), for the suite and for explore, and explore ended
 * by its own `--budget`. Each exits as a shell reports the signal (or as its verdict says) and
 * leaves no run collection; whatever it could not delete it prints, with the sweep line. Under
 * DEEP=full explore is interrupted at 10 moments for each signal and ended by 10 budgets (issue
 * 35: 10 of 10); each .ci/run, 3 moments for each and 2 budgets.
 */
import { describe, expect, it } from 'vitest';
import { DEEP_FULL } from '../../support/deep.ts';
import { interruptedRun, type InterruptedRun } from '../../support/interrupted-run.ts';

const MOMENTS = DEEP_FULL ? [1, 2, 3, 5, 7, 9, 12, 15, 20, 25] : [1, 5, 12];
const CASES = (['suite', 'explore'] as const).flatMap((command) =>
  (['SIGINT', 'SIGTERM'] as const).flatMap((signal) =>
    (command === 'suite' ? [1, 5, 12] : MOMENTS).map((afterCreates) => ({
      command,
      signal,
      afterCreates,
    })),
  ),
);
/** Budgets that end explore early, midway and late in a sequence (whole seconds, as --budget takes them; seed). */
const BUDGETS = (
  DEEP_FULL
    ? [
        ['1s', 1],
        ['2s', 2],
        ['3s', 3],
        ['4s', 4],
        ['5s', 5],
        ['1s', 6],
        ['2s', 7],
        ['3s', 8],
        ['4s', 9],
        ['5s', 10],
      ]
    : [
        ['1s', 1],
        ['3s', 5],
      ]
).map(([budget, seed]) => ({ budget: budget as string, seed: seed as number }));

/** Nothing of the run is left on the target, or what is left is printed with the sweep line. */
function leftNothingOrSaidWhat(run: InterruptedRun): void {
  for (const id of run.left) expect(run.stdout).toContain(id);
  if (run.left.length > 0) expect(run.stdout).toMatch(/answers-contract sweep .* --run \w+/);
  // The mock deletes what it is asked to: nothing is left at all.
  expect(run.left).toEqual([]);
}

// @note Side by side: each run waits on a target 50 ms away, not on a core; the moment of each
// signal is counted in creates, not time, so running beside others moves nothing.
describe.concurrent(
  'every interruption of a destructive run leaves nothing behind, or says what',
  () => {
    it.each(CASES)(
      '$command, $signal after create $afterCreates',
      async (options) => {
        const run = await interruptedRun(options);
        expect(run.code, run.stderr).toBe(options.signal === 'SIGINT' ? 130 : 143);
        leftNothingOrSaidWhat(run);
        // An interrupted run says what it left, nothing included.
        expect(run.stdout).toContain('Left behind: nothing');
      },
      60_000,
    );

    it.each(BUDGETS)(
      'explore ended by --budget $budget (seed $seed)',
      async (options) => {
        const run = await interruptedRun({ command: 'explore', ...options });
        // The correct mock: no divergence, and the budget's end is not one.
        expect(run.code, run.stdout + run.stderr).toBe(0);
        expect(run.stdout).toMatch(/^AGREED: /);
        leftNothingOrSaidWhat(run);
      },
      60_000,
    );
  },
);
