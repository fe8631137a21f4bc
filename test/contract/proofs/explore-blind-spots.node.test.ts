/**
 * Bugs of the independent server aimed at explore's blind spots when they were seeded
 * (BLIND_SPOT_VARIANTS of test/independent/explore-variants.ts): a list's later pages, metadata
 * of many keys or deep nesting, a partial update of an object, long text outside ASCII, a hit's
 * content, a write seen through one operation only, an id reused after a delete, a collection of
 * more objects than a batch. Explore must find each within its bound in requests and name the
 * row's clause (exit 1 with a story); the fixed suite passes every one of them. Deep tier: seed 1
 * by default, seeds 1-3 with DEEP=full.
 */
import { DEEP_FULL } from '../../support/deep.ts';
import { describe, expect, it } from 'vitest';
import { CHECKS } from '../../../src/contract/checks/index.ts';
import { runContract } from '../../../src/contract/runner.ts';
import {
  BLIND_SPOT_VARIANTS,
  type ExploreVariantName,
} from '../../independent/explore-variants.ts';
import { startIndependentServer } from '../../independent/server.ts';
import { exploreIndependent, FINDING, SEEDS, targetDescription } from './explore-independent.ts';

/**
 * What explore does not do today for a row, on which seeds (`all`: 1-3), and why: missed within
 * its bound, or found but named by another clause than the rule the bug breaks. Measured on 2
 * cores at ebbda15 (docs/independent-server.md, "Variants aimed at explore's blind spots"). Their
 * runs are `it.fails`: the day explore finds one and names its clause, the test flips, and the
 * row leaves this map.
 */
const KNOWN_MISSED = new Map<ExploreVariantName, { seeds: readonly number[] | 'all'; why: string }>(
  [
    [
      'list-later-pages-count-zero',
      {
        seeds: [1],
        // @note Measured at fc39e71 on 2 cores: seeds 2 and 3 find it at 8,200 and 11,474
        // requests; seed 1 found it in 15.1 s before issue 48 changed the step mix.
        why: 'the sequences seed 1 draws since issue 48 added the recreateCollection step (weight 2) do not show it within 40,000 requests; why those sequences miss it is not yet known',
      },
    ],
  ],
);

/**
 * The seed each .ci/run proves a row on, where seed 1 finds it but takes longer than another
 * seed does (DEEP=full on 2 cores, 2026-11-27 at 86cd7e3+: object-id-reused 20.9 s on seed 1,
 * 1.8 s on seed 2 (b6ae53f+)). Since issue 48's recreateCollection step changed what every seed
 * draws (2026-11-28 at 224bd46, quiet): cascade-batch-25 39.6 / 5.2 / 30.9 s on seeds 1-3 (37,109
 * / 4,612 / 26,290 requests), list-later-pages-count-zero missed / 8,200 / 11,474 requests.
 * DEEP=full runs every row on seeds 1-3.
 */
const CI_SEED: Partial<Record<ExploreVariantName, number>> = {
  'object-id-reused': 2,
  'list-later-pages-count-zero': 2,
  'cascade-batch-25': 2,
};

/**
 * Rows whose bug may leave data behind: `cascade-batch-25`'s objects past the 25th outlive their
 * collection, and a clean-up that does not look for orphans by search rightly reports them.
 */
const LEAVES_DATA: ReadonlySet<ExploreVariantName> = new Set(['cascade-batch-25']);

const missedOn = (variant: ExploreVariantName, seed: number) => {
  const seeds = KNOWN_MISSED.get(variant)?.seeds;
  return seeds === 'all' || (seeds?.includes(seed) ?? false);
};

describe('explore against bugs aimed at its blind spots', () => {
  const cases = BLIND_SPOT_VARIANTS.flatMap((row) =>
    (DEEP_FULL ? SEEDS : [CI_SEED[row.variant] ?? 1]).map((seed) => ({ ...row, seed })),
  );
  for (const { variant, clause, seed } of cases) {
    const missed = missedOn(variant, seed);
    // @note A known miss searches to its whole bound (minutes in all) to show it still misses:
    // under DEEP=full only; each .ci/run keeps every row's fixed-suite test and every found row.
    (missed ? (DEEP_FULL ? it.fails : it.skip) : it)(
      `finds ${variant} with seed ${seed} within 40,000 requests, naming ${clause}${missed ? ` (known missed: ${KNOWN_MISSED.get(variant)?.why})` : ''}`,
      async () => {
        const report = await exploreIndependent({ variant, seed, maxRequests: FINDING });
        expect(report.story?.clause, report.story?.message).toBe(clause);
        if (!LEAVES_DATA.has(variant)) expect(report.leftBehind).toEqual([]);
      },
      150_000,
    );
  }

  it.each(BLIND_SPOT_VARIANTS)(
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
