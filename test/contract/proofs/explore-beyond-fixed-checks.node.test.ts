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
import { designOf, exploreDesign, suiteOnDesign } from '../../independent/design-runs.ts';
import { DESIGN_VARIANTS, EXPLORE_VARIANTS } from '../../independent/explore-variants.ts';
import { startIndependentServer } from '../../independent/server.ts';
import { exploreIndependent, FINDING, SEEDS, targetDescription } from './explore-independent.ts';
import { DEEP_FULL } from '../../support/deep.ts';

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

/**
 * What the fixed suite says of each of issue 48's design variants (destructive, every key, on the
 * design it needs): the check that catches it, or none where no fixed check makes the sequence
 * (a delete between two pages, an update before a search, a refusal read back, a rename listed).
 */
const SUITE_CATCHES: Record<(typeof DESIGN_VARIANTS)[number]['variant'], string | undefined> = {
  'link-walk-skips-after-delete': undefined,
  'refusal-half-applies': undefined,
  'cascade-never-completes': 'delete.cascade',
  'rename-not-in-summaries': undefined,
  'hit-object-differs': undefined,
};

/**
 * Rows whose bug leaves data behind: a cascade that never completes keeps a deleted collection's
 * objects, and the look-back rightly names them. (A refused update that half-applies once left
 * its renamed collection unknown to the run; the run now knows a name it sent before the answer.)
 */
const DESIGN_LEAVES_DATA = new Set<string>(['cascade-never-completes']);

/**
 * Rows whose divergence shows only beside other sequences: an offset in a `Link` header counts
 * every collection of the account, so a walk skips or repeats one when another lane's create or
 * delete shifts it (seeds 1-3 at 4e2299f: each story as first seen, shown again in 0 of 3 replays
 * alone). Explore reports such a story as first seen, unshrunk, and says why; that is what is
 * proven for them, not a short story.
 */
const SHOWN_BY_OTHER_LANES = new Set<string>(['link-walk-skips-after-delete']);

/**
 * The seed each .ci/run proves a design variant on where seed 1 finds it slower than another:
 * cascade-never-completes waits on its declared cascade window while it shrinks (75 / 44 / 74 s on
 * seeds 1-3 at 069867c, 2 cores shared). DEEP=full runs every row on seeds 1-3.
 */
const DESIGN_CI_SEED: Partial<Record<(typeof DESIGN_VARIANTS)[number]['variant'], number>> = {
  'cascade-never-completes': 2,
};

describe("explore against issue 48's design variants, each on the design it breaks", () => {
  const cases = DESIGN_VARIANTS.flatMap((row) =>
    (DEEP_FULL ? SEEDS : [DESIGN_CI_SEED[row.variant] ?? 1]).map((seed) => ({ ...row, seed })),
  );
  for (const row of cases) {
    const { variant, clause, seed } = row;
    const needs = 'needs' in row ? row.needs : undefined;
    // @note A row that needs a judge the kit does not have yet searches its whole bound to show
    // it still misses: under DEEP=full only, as explore-blind-spots' known misses.
    (needs ? (DEEP_FULL ? it.fails : it.skip) : it)(
      `finds ${variant} with seed ${seed} within 40,000 requests, naming ${clause}${needs ? ` (needs ${needs})` : ''}`,
      async () => {
        const report = await exploreDesign(designOf(variant), {
          variant,
          seed,
          maxRequests: FINDING,
        });
        expect(report.story?.clause, report.story?.message).toBe(clause);
        if (SHOWN_BY_OTHER_LANES.has(variant)) {
          // Not replayable alone: the story says so, and is the sequence as first seen.
          expect(report.story!.asFirstSeen).toBe(true);
          expect(report.story!.shownAgain?.shown).toBe(0);
        } else expect(report.story!.steps.length).toBeLessThanOrEqual(8);
        if (!DESIGN_LEAVES_DATA.has(variant)) expect(report.leftBehind).toEqual([]);
      },
      150_000,
    );
  }

  it.each(
    DESIGN_VARIANTS.map((row) => {
      const caught = SUITE_CATCHES[row.variant];
      return { ...row, failing: caught ? [caught] : [] };
    }),
  )(
    'the fixed suite on $variant (destructive, every key) fails exactly $failing',
    async ({ variant, failing }) => {
      const report = await suiteOnDesign(designOf(variant), variant);
      const failed = report.results.filter((r) => r.outcome === 'fail').map((r) => r.id);
      expect(failed).toEqual(failing);
    },
    60_000,
  );
});
