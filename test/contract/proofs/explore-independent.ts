/**
 * `explore` against the independent server (test/independent/), shared by the deep tier's two
 * explore files: the seeds, the bounds in requests and a run against a fresh server.
 */
import { fileURLToPath } from 'node:url';
import { startExploreModel } from '../../../src/bin/mock-target.ts';
import { explore } from '../../../src/contract/explore/explore.ts';
import { loadTargetFile } from '../../../src/contract/target-api/load.ts';
import type { TargetDescription } from '../../../src/contract/target-api/description.ts';
import { startIndependentServer } from '../../independent/server.ts';
import type { VariantName } from '../../independent/variants.ts';
import { deepSeeds } from '../../support/deep.ts';

/** Seeds 1-3 under DEEP=full; seed 1 in every .ci/run. */
export const SEEDS = deepSeeds([1, 2, 3]);
/** A run against a correct implementation: a few seconds here, bounded by requests. */
export const AGREEING = 3_000;
/**
 * What a seeded bug may take to be found: 40,000 requests, about 20 s here; the slowest find
 * (page-token-carries-account, seed 2) took 14,591 and 7.4 s (docs/independent-server.md).
 */
export const FINDING = 40_000;
let loaded: Promise<TargetDescription> | undefined;

/** The independent server's target file, read once. */
export function targetDescription(): Promise<TargetDescription> {
  loaded ??= loadTargetFile(
    fileURLToPath(new URL('../../independent/target.yaml', import.meta.url)),
  );
  return loaded;
}

/** `explore` against a fresh independent server (with `variant`), stopped afterwards. */
export async function exploreIndependent(
  options: {
    variant?: VariantName;
    seed: number;
    /** The run's bound: requests, so that what is found does not depend on the machine's speed. */
    maxRequests: number;
    replayPath?: string;
    /**
     * Sequences side by side (default 1: a finding proven from its seed alone, shrunk and
     * replayed as it shows; the correct servers are run side by side, as users run them).
     */
    concurrency?: number;
    /** How long shrinking a divergence may take (0: the story as first seen; default: the budget). */
    shrinkBudgetMs?: number;
    maxWalkItems?: number;
  },
  server?: Awaited<ReturnType<typeof startIndependentServer>>,
) {
  const target = server ?? (await startIndependentServer({ variant: options.variant }));
  try {
    return await explore({
      startModel: startExploreModel,
      baseUrl: target.url,
      description: await targetDescription(),
      keys: target.keys,
      seed: options.seed,
      budgetMs: 120_000,
      maxRequests: options.maxRequests,
      replayPath: options.replayPath,
      lanes: options.concurrency ?? 1,
      shrinkBudgetMs: options.shrinkBudgetMs,
      maxWalkItems: options.maxWalkItems,
    });
  } finally {
    if (!server) await target.close();
  }
}
