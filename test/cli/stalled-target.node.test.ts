/**
 * Issue 46: a target that accepts a request and then stalls (sends nothing; sends its headers,
 * then nothing; trickles its body a byte at a time) held the suite, `explore` (even with
 * `--budget`) and `replay` until they were killed. Each command here runs against the mock
 * behind a target that stalls its third create, with `--request-timeout 2s`, under
 * `node --expose-gc` with a full collection every 250 ms (test/support/collect-garbage.ts): it
 * must end within its deadline plus the clean-up's 15 s, exit 2, delete what it made and print
 * `Left behind: nothing`. And `explore --budget` ends a run whose requests all stall past it.
 */
import { afterAll, describe, expect, it } from 'vitest';
import {
  CLEANUP_MS,
  LATIN_SQUARE,
  removeRecording,
  stalledCase,
  stalledRun,
} from '../support/stalled-run.ts';

afterAll(removeRecording);

// @note Every command meets every stall form here, on each Node line, in a Latin square: what
// the Node line changes is how a request's deadline survives the garbage collector, which
// test/regressions/request-deadline-after-gc proves for each form; the other six pairs of the
// matrix run once (test/contract/proofs/stalled-target-matrix).
describe('a stalled target ends the run at its request deadline; the run cleans up and exits 2', () => {
  for (const [command, form] of LATIN_SQUARE) it(...stalledCase(command, form), 120_000);
});

describe("explore's --budget ends a run whose requests stall past it", () => {
  it('a create that never answers, --request-timeout 10m, --budget 3s: the budget stops it, cleans up, "Left behind: nothing"', async () => {
    const run = await stalledRun('silent', [
      'explore',
      '--seed',
      '3',
      '--budget',
      '3s',
      '--request-timeout',
      '10m',
    ]);
    const said = `${run.stdout}\n${run.stderr}`;
    expect({ stalled: run.stalled, killed: run.killed, code: run.code }, said).toEqual({
      stalled: true,
      killed: false,
      code: 0,
    });
    expect(run.stdout).toMatch(
      /^The budget stopped \d+ sequences in flight: their requests were given up/m,
    );
    expect(run.stdout).toContain('Left behind: nothing');
    expect(run.left).toEqual([]);
    expect(run.endedAfterMs).toBeLessThan(3_000 + CLEANUP_MS);
  }, 120_000);
});
