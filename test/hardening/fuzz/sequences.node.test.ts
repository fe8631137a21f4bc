/**
 * Random sequences of API operations against the mock, judged step by step (issue 35: one
 * sequence engine). They are `explore`'s, with the mock as the target and the independent server
 * (test/independent/, written without the mock's code) as the model: every answer of the mock is
 * compared with the other server's on what the spec states, through each one's description.
 * Fixed seed (FUZZ_SEED); bounded in requests, not time, so that what is found does not depend on
 * the machine's speed. A divergence prints explore's story and the seed and path that replay it.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { explore } from '../../../src/contract/explore/explore.ts';
import { startMockTarget } from '../../../src/bin/mock-target.ts';
import type { StartedTarget } from '../../../src/contract/cli.ts';
import { startIndependentModel } from '../../independent/explore-model.ts';
import { FUZZ_RUNS, FUZZ_SEED } from '../fuzz-support.ts';

/** Requests, both sides counted: `npm run fuzz` (FUZZ_RUNS=2000) sends over 13 times as many. */
const REQUESTS = Math.max(3_000, FUZZ_RUNS * 20);

let mock: StartedTarget;
beforeAll(async () => {
  mock = await startMockTarget();
});
afterAll(() => mock.stop());

function exploreMock(target: StartedTarget, maxRequests: number, lanes: number) {
  return explore({
    baseUrl: target.baseUrl,
    keys: { ...target.keys, full: target.keys.full! },
    startModel: startIndependentModel,
    seed: FUZZ_SEED,
    budgetMs: 300_000,
    maxRequests,
    lanes,
  });
}

it('the mock answers random sequences as the independent server does, on what the spec states', async () => {
  const report = await explore({
    baseUrl: mock.baseUrl,
    keys: { ...mock.keys, full: mock.keys.full! },
    startModel: startIndependentModel,
    seed: FUZZ_SEED,
    budgetMs: 300_000,
    maxRequests: REQUESTS,
    // @note Side by side: the mock also answers sequences that interleave, as a shared server does.
    lanes: 4,
  });
  expect(report.story, JSON.stringify(report.story, null, 2)).toBeUndefined();
  expect(report.requests).toBeGreaterThanOrEqual(REQUESTS);
  expect(report.leftBehind).toEqual([]);
  console.log(
    `fuzz: ${report.sequences} sequences, ${report.requests} requests (seed ${FUZZ_SEED})`,
  );
}, 360_000);

/** A broken mock of each family the sequences judge: the judge can fail. */
it.each(['delete-not-cascading', 'page-skips-item', 'search-index-stale', 'cross-account-leak'])(
  'finds the mock broken by the fault %s',
  async (fault) => {
    const broken = await startMockTarget(fault);
    try {
      const report = await exploreMock(broken, REQUESTS, 1);
      expect(report.story?.clause).toBeDefined();
    } finally {
      await broken.stop();
    }
  },
  360_000,
);
