/**
 * Found closing issue 47 ("a walk that did not reach the end of a list (a cut, a limit) never
 * passes a rule about the whole list"): a walk that stopped at the kit's own bound
 * (`--max-walk-items`) failed COLL-LIST-2 in explore and replay, and failed the suite's list
 * checks: a correct server whose list is only longer than the bound was reported broken. The walk
 * now ends short of the end, saying why, and every rule about the whole list is not judged.
 */
import { expect, it } from 'vitest';
import { CHECKS } from '../../src/contract/checks/index.ts';
import { runContract } from '../../src/contract/runner.ts';
import { startIndependentServer } from '../independent/server.ts';
import { exploreIndependent, targetDescription } from '../contract/proofs/explore-independent.ts';

const LIMIT = /--max-walk-items raises the limit/;

it('explore finds nothing wrong with a correct server whose list is longer than --max-walk-items', async () => {
  const server = await startIndependentServer();
  try {
    const report = await exploreIndependent(
      { seed: 1, maxRequests: 500, shrinkBudgetMs: 0, maxWalkItems: 3 },
      server,
    );
    expect(report.story, JSON.stringify(report.story?.message)).toBeUndefined();
    const reasons = Object.values(report.coverage.notJudged ?? {}).flatMap(Object.keys);
    expect(reasons.some((reason) => LIMIT.test(reason))).toBe(true);
  } finally {
    await server.close();
  }
}, 60_000);

it('the suite fails no check of the list there: the rules about the whole list skip, naming it', async () => {
  const server = await startIndependentServer();
  try {
    const report = await runContract({
      baseUrl: server.url,
      keys: server.keys,
      checks: CHECKS.filter((check) => check.level === 'spec'),
      destructive: true,
      description: await targetDescription(),
      maxWalkItems: 3,
    });
    const listing = report.results.filter((result) => result.id.startsWith('list.'));
    expect(listing.filter((result) => result.outcome === 'fail')).toEqual([]);
    expect(
      listing.some((result) => result.outcome === 'skip' && LIMIT.test(result.reason ?? '')),
    ).toBe(true);
  } finally {
    await server.close();
  }
}, 60_000);
