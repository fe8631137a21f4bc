/**
 * The matrix of interruptions: SIGINT and SIGTERM, early, midway and late (after the target's
 * 1st, 5th and 12th create, the moments 1.5, 3 and 5 s into a run against a mock 30 ms away),
 * for the suite and for explore. Each exits as a shell reports the signal and leaves no run
 * collection; whatever it could not delete it prints, with the sweep line.
 */
import { describe, expect, it } from 'vitest';
import { interruptedRun } from '../../support/interrupted-run.ts';

const CASES = (['suite', 'explore'] as const).flatMap((command) =>
  (['SIGINT', 'SIGTERM'] as const).flatMap((signal) =>
    [1, 5, 12].map((afterCreates) => ({ command, signal, afterCreates })),
  ),
);

describe('every interruption of a destructive run leaves nothing behind, or says what', () => {
  it.each(CASES)(
    '$command, $signal after create $afterCreates',
    async (options) => {
      const run = await interruptedRun(options);
      expect(run.code, run.stderr).toBe(options.signal === 'SIGINT' ? 130 : 143);
      for (const id of run.left) expect(run.stdout).toContain(id);
      if (run.left.length > 0) expect(run.stdout).toMatch(/answers-contract sweep .* --run \w+/);
      // The mock deletes what it is asked to: nothing is left at all.
      expect(run.left).toEqual([]);
      expect(run.stdout).toContain('Left behind: nothing');
    },
    60_000,
  );
});
