/**
 * Runs over one design of designs.ts, with or without a seeded variant: explore and the fixed
 * suite, each against a fresh server made that way and described as descriptionText says. Shared
 * by the deep tier's proofs of issue 48's design variants
 * (test/contract/proofs/explore-beyond-fixed-checks.node.test.ts).
 */
import { startExploreModel } from '../../src/bin/mock-target.ts';
import { SPEC_CHECKS } from '../../src/contract/checks/index.ts';
import { explore } from '../../src/contract/explore/explore.ts';
import { runContract } from '../../src/contract/runner.ts';
import { parseTargetDescription } from '../../src/contract/target-api/load.ts';
import {
  DESIGN_VARIANT_BASE,
  descriptionText,
  designName,
  serverOptions,
  settleMsOf,
  type DesignRow,
} from './designs.ts';
import { DESIGN_VARIANTS } from './explore-variants.ts';
import { startIndependentServer } from './server.ts';
import type { VariantName } from './variants.ts';

/** How long a read after a write may wait where the description leaves it unsaid (`--settle`). */
const SETTLE_MS = 5_000;

/** The design a variant of DESIGN_VARIANTS is seeded on: the base row with what it needs. */
export function designOf(variant: (typeof DESIGN_VARIANTS)[number]['variant']): DesignRow {
  const row = DESIGN_VARIANTS.find((candidate) => candidate.variant === variant);
  if (!row) throw new Error(`${variant} is no design variant`);
  return { ...DESIGN_VARIANT_BASE, ...row.design };
}

const described = (row: DesignRow) =>
  parseTargetDescription(descriptionText(row), `designs.ts: ${designName(row)}`);

/** `explore` against a fresh server of `row` (seeded with `variant`), bounded in requests. */
export async function exploreDesign(
  row: DesignRow,
  options: { variant?: VariantName; seed: number; maxRequests: number },
) {
  const server = await startIndependentServer({ ...serverOptions(row), variant: options.variant });
  try {
    return await explore({
      startModel: startExploreModel,
      baseUrl: server.url,
      description: described(row),
      keys: server.keys,
      seed: options.seed,
      budgetMs: 120_000,
      maxRequests: options.maxRequests,
      settleMs: settleMsOf(row, SETTLE_MS),
    });
  } finally {
    await server.close();
  }
}

/** The fixed spec suite, destructive with every key, against a fresh server of `row`. */
export async function suiteOnDesign(row: DesignRow, variant?: VariantName) {
  const server = await startIndependentServer({ ...serverOptions(row), variant });
  try {
    return await runContract({
      baseUrl: server.url,
      keys: server.keys,
      checks: SPEC_CHECKS,
      destructive: true,
      description: described(row),
      level: 'spec',
      settleMs: settleMsOf(row, SETTLE_MS),
    });
  } finally {
    await server.close();
  }
}
