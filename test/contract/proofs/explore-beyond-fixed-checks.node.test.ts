/**
 * Bugs of the independent server that the fixed suite passes and only `answers-contract explore`
 * finds (test/independent/explore-variants.ts): explore must find each within its bound in
 * requests, name its clause and shrink it to a short story; the fixed suite must pass each (else
 * it would not be a bug only explore finds). Deep tier: seed 1 by default, seeds 1-3 with
 * DEEP=full.
 */
import { describe, expect, it } from 'vitest';
import { CHECKS } from '../../../src/contract/checks/index.ts';
import { runContract } from '../../../src/contract/runner.ts';
import { EXPLORE_VARIANTS } from '../../independent/explore-variants.ts';
import { startIndependentServer } from '../../independent/server.ts';
import { exploreIndependent, FINDING, SEEDS, targetDescription } from './explore-independent.ts';

describe('explore against bugs the fixed checks miss', () => {
  const cases = EXPLORE_VARIANTS.flatMap((row) => SEEDS.map((seed) => ({ ...row, seed })));
  it.each(cases)(
    'finds $variant with seed $seed within 40,000 requests, names $clause, in at most 8 steps',
    async ({ variant, clause, seed }) => {
      const report = await exploreIndependent({ variant, seed, maxRequests: FINDING });
      expect(report.story?.clause, report.story?.message).toBe(clause);
      expect(report.story!.steps.length).toBeLessThanOrEqual(8);
      expect(report.leftBehind).toEqual([]);
    },
    150_000,
  );

  it.each(EXPLORE_VARIANTS)(
    'the fixed suite passes $variant (destructive, every key)',
    async ({ variant }) => {
      const server = await startIndependentServer({ variant });
      try {
        const report = await runContract({
          baseUrl: server.url,
          description: await targetDescription(),
          keys: server.keys,
          checks: CHECKS,
          destructive: true,
        });
        expect(
          report.failed,
          JSON.stringify(report.results.filter((r) => r.outcome === 'fail').map((r) => r.id)),
        ).toBe(false);
      } finally {
        await server.close();
      }
    },
    60_000,
  );
});
