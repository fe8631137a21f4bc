/**
 * `answers-contract explore` alone, with no fixed check, against the mock's own deliberate
 * defects (src/faults/): at `--level profile` it must find at least 90 % of them, and find
 * nothing in the correct mock. Runs are bounded by requests, not time, so that what is found
 * does not depend on the machine's speed.
 */
import { expect, it } from 'vitest';
import { startExploreModel, startMockTarget } from '../../src/bin/mock-target.ts';
import { explore } from '../../src/contract/explore/explore.ts';
import { FAULT_NAMES } from '../../src/faults/index.ts';

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
    });
  } finally {
    await target.stop();
  }
}

it.each([1, 2, 3])(
  'finds nothing in the correct mock at --level profile (seed %i)',
  async (seed) => {
    const report = await exploreMock(undefined, seed);
    expect(report.story, JSON.stringify(report.story, null, 2)).toBeUndefined();
    expect(report.requests).toBeGreaterThanOrEqual(REQUESTS);
    expect(report.leftBehind).toEqual([]);
  },
  60_000,
);

it('finds at least 90 % of the mock’s own faults, with no fixed check', async () => {
  const missed: string[] = [];
  const found: string[] = [];
  for (const fault of FAULT_NAMES) {
    const report = await exploreMock(fault, 1);
    expect(report.leftBehind, fault).toEqual([]);
    if (report.story) found.push(`${fault}: ${report.story.clause}`);
    else missed.push(fault);
  }
  expect(found.length / FAULT_NAMES.length, `missed: ${missed.join(', ')}`).toBeGreaterThanOrEqual(
    0.9,
  );
}, 300_000);
