/**
 * Found by trying the kit against a server written from the spec (issue 48, "objects left behind,
 * unseen"): a collection delete that only took its objects out of the search index left them
 * fetchable by id. Explore's clean-up looked for a sequence's objects by search alone (replay's by
 * get alone, the fixed suite's by a search for its word), so the run's objects outlived it on the
 * server and the report said nothing was left. All three now look one way
 * (src/contract/runner/leftovers.ts): a get of each of the run's objects and a search for each word
 * it planted; what is still answered is deleted, or reported.
 */
import { expect, it } from 'vitest';
import { CHECKS } from '../../src/contract/checks/index.ts';
import { runContract } from '../../src/contract/runner.ts';
import { startIndependentServer } from '../independent/server.ts';
import { exploreIndependent, targetDescription } from '../contract/proofs/explore-independent.ts';

it('explore leaves none of its objects behind on a server whose collection delete keeps them fetchable', async () => {
  const server = await startIndependentServer({ variant: 'cascade-unindexed-only' });
  // @note Nothing but what the run makes: every object held afterwards is the run's.
  server.empty();
  try {
    const report = await exploreIndependent(
      { seed: 1, maxRequests: 1_500, shrinkBudgetMs: 0 },
      server,
    );
    // The bug itself is the story (a deleted collection's object still answered)...
    expect(report.story?.clause).toBe('DEL-2');
    // ...and the clean-up found the objects the bug kept, and deleted them: none outlives the run.
    expect(server.heldObjects()).toBe(0);
    expect(report.leftBehind).toEqual([]);
  } finally {
    await server.close();
  }
}, 60_000);

it('the fixed suite leaves none of its objects behind on that server either', async () => {
  const server = await startIndependentServer({ variant: 'cascade-unindexed-only' });
  server.empty();
  try {
    const report = await runContract({
      baseUrl: server.url,
      keys: server.keys,
      checks: CHECKS.filter((check) => check.level === 'spec'),
      destructive: true,
      description: await targetDescription(),
    });
    expect(report.results.find((result) => result.id === 'delete.cascade')?.outcome).toBe('fail');
    expect(server.heldObjects()).toBe(0);
    expect(report.leftBehind).toEqual([]);
  } finally {
    await server.close();
  }
}, 60_000);
