/**
 * Issue 46: the suite, `explore` and `replay` against each form of a stalled target, the pairs
 * test/cli/stalled-target does not run on every Node line (it runs a Latin square): together,
 * every command meets every form, and each ends at its deadline, cleans up and exits 2.
 */
import { afterAll, describe, it } from 'vitest';
import {
  LATIN_SQUARE,
  removeRecording,
  stalledCase,
  type StallCommand,
} from '../../support/stalled-run.ts';

afterAll(removeRecording);

describe('a stalled target ends the run at its request deadline; the run cleans up and exits 2', () => {
  for (const command of ['suite', 'explore', 'replay'] as const satisfies StallCommand[])
    for (const form of ['silent', 'headers', 'trickle'] as const)
      if (!LATIN_SQUARE.some(([c, f]) => c === command && f === form))
        it(...stalledCase(command, form), 120_000);
});
