/**
 * `answers-contract explore` alone, with no fixed check, against the mock's own deliberate
 * defects (src/faults/): at `--level profile` it must find each of them but the few named in
 * MISSED (at most 10 %), and find nothing in the correct mock. Runs are bounded by requests, not
 * time, so that what is found does not depend on the machine's speed.
 */
import { expect, it } from 'vitest';
import { startExploreModel, startMockTarget } from '../../../src/bin/mock-target.ts';
import { explore } from '../../../src/contract/explore/explore.ts';
import { FAULT_NAMES, type FaultName } from '../../../src/faults/index.ts';
import { DEEP_FULL, deepSeeds } from '../../support/deep.ts';

/** Requests (both sides counted) explore may spend on each fault: seconds on this machine. */
const REQUESTS = 6_000;

async function exploreMock(fault: string | undefined, seed: number) {
  const target = await startMockTarget(fault);
  try {
    return await explore({
      startModel: startExploreModel,
      baseUrl: target.baseUrl,
      keys: { ...target.keys, full: target.keys.full! },
      seed,
      level: 'profile',
      budgetMs: 120_000,
      maxRequests: REQUESTS,
      // @note A fault is found from its seed alone; the correct mock is run side by side.
      lanes: fault === undefined ? 4 : 1,
    });
  } finally {
    await target.stop();
  }
}

it.each(deepSeeds([1, 2, 3]))(
  'finds nothing in the correct mock at --level profile (seed %i)',
  async (seed) => {
    const report = await exploreMock(undefined, seed);
    expect(report.story, JSON.stringify(report.story, null, 2)).toBeUndefined();
    expect(report.requests).toBeGreaterThanOrEqual(REQUESTS);
    expect(report.leftBehind).toEqual([]);
  },
  120_000,
);

/**
 * The faults explore does not find within the bound, with why. Each is a test that fails the day
 * explore finds it, so that this list only shrinks (issue 35 names its blind spots).
 */
// @note search-cross-account left it with issue 48's step kind (recreateCollection): the
// sequences seed 1 draws since then find it.
const MISSED: Partial<Record<FaultName, string>> = {};

it('misses at most 10 % of the faults, each named with a reason', () => {
  expect(Object.keys(MISSED).length / FAULT_NAMES.length).toBeLessThanOrEqual(0.1);
  for (const fault of Object.keys(MISSED)) expect(FAULT_NAMES).toContain(fault);
});

const found = FAULT_NAMES.filter((fault) => !(fault in MISSED));

/** Faults whose bug keeps the run's objects past its clean-up, and how the report names them. */
const KEEPS_DATA: Partial<Record<FaultName, RegExp>> = {
  'delete-not-cascading':
    /^object \S+ \(still found by a search for \S+ after its collection was deleted\)$/,
  'deleted-object-searchable':
    /^object \S+ \(still found by a search for \S+ after its collection was deleted\)$/,
  // @note Its objects still answer a get by id once the collection is deleted, and their own
  // delete does not reach them: the clean-up's get finds them (runner/leftovers.ts).
  'soft-delete': /^object \S+ \(still answered after its collection was deleted\)$/,
};

it.each(found)(
  'finds %s with seed 1, with no fixed check',
  async (fault) => {
    const report = await exploreMock(fault, 1);
    expect(report.story, `explore missed ${fault}`).toBeDefined();
    // @note A fault that keeps a deleted collection's objects keeps the run's data where no
    // request can reach it (its objects' paths name the collection): it is left behind, named.
    const kept = KEEPS_DATA[fault];
    if (kept)
      expect(
        report.leftBehind.every((left) => kept.test(left)),
        fault,
      ).toBe(true);
    else expect(report.leftBehind, fault).toEqual([]);
  },
  120_000,
);

// @note A known miss searches to its whole bound to show it still misses: under DEEP=full only.
(DEEP_FULL ? it.fails : it.skip).each(Object.keys(MISSED))(
  'misses %s with seed 1 (a known blind spot)',
  async (fault) => {
    const report = await exploreMock(fault as FaultName, 1);
    expect(report.story).toBeDefined();
  },
  120_000,
);
