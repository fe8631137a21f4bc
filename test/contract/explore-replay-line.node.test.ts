/**
 * What the replay line of a story claims: the replays made within the run are the story's one
 * sequence each (never shrunk further, which would run others), counted as shown when they break
 * the same clause; and the line says when a replay run may not show the bug again (new names and
 * ids; a divergence not every replay showed depends on timing). Against a target that mangles a
 * character far into a long text (test/support/mangling-target.ts), one sequence at a time.
 */
import { afterEach, expect, it } from 'vitest';
import { startExploreModel } from '../../src/bin/mock-target.ts';
import { clauseCoverage } from '../../src/contract/explore/coverage.ts';
import { explore } from '../../src/contract/explore/explore.ts';
import { formatExplore } from '../../src/contract/explore/story.ts';
import { KEYS } from '../support/keys.ts';
import { startManglingTarget } from '../support/mangling-target.ts';

let target: Awaited<ReturnType<typeof startManglingTarget>> | undefined;
afterEach(async () => {
  await target?.close();
  target = undefined;
});

const COMMAND = 'npx --no -- answers-contract explore --destructive';

const run = (baseUrl: string, seed: number, shrinkBudgetMs: number) =>
  explore({
    baseUrl,
    keys: { full: KEYS.full },
    startModel: startExploreModel,
    seed,
    lanes: 1,
    maxSteps: 6,
    maxRequests: 3_000,
    budgetMs: 30_000,
    shrinkBudgetMs,
  });

const printed = (report: Awaited<ReturnType<typeof run>>) =>
  formatExplore(
    { ...report, clauseCoverage: clauseCoverage(report.coverage.clauses, () => true) },
    COMMAND,
  );

it('replays the story within the run as one sequence each, and says a replay run writes new names and ids', async () => {
  target = await startManglingTarget();
  // Unshrunk (--shrink-budget 0s): the story is the search's run, numbered by fast-check from 0,
  // the last sequence the search ran; then its 3 replays. Before: each replay that diverged went
  // on shrinking, running many more sequences, unbounded by any budget.
  const report = await run(target.baseUrl, 1, 0);
  const story = report.story!;
  expect(story.clause).toBe('OBJ-GET-1');
  expect(story.path).toMatch(/^\d+$/);
  expect(story.shownAgain).toEqual({ shown: 3, of: 3 });
  expect(report.sequences).toBe(Number(story.path) + 1 + 3);
  const text = printed(report);
  expect(text).toContain('Shown again in 3 of 3 replays of this sequence within this run.');
  expect(text).toMatch(
    /^Replay exactly this sequence: .*\n {2}It replays the steps and values, not the names, ids or timing: it writes under a new run id/m,
  );
  expect(text).not.toContain('Not every replay');
  expect(report.leftBehind).toEqual([]);
}, 120_000);

it('says a divergence that not every replay within the run showed depends on timing or names', async () => {
  // Only the objects of odd-numbered sequences are mangled (the number is in the word planted in
  // their text, zq<run id>s<sequence>w<n>): each replay within the run is a sequence of its own,
  // so whether it shows the divergence depends on its number, as a bug of chunk boundaries
  // depends on the length of names and on timing.
  target = await startManglingTarget(
    (object) => Number(/zq[0-9a-z]*s(\d+)w\d/.exec(JSON.stringify(object))?.[1]) % 2 === 1,
  );
  // Seed 3: the first odd-numbered sequence with a long text comes early (the 35th).
  const report = await run(target.baseUrl, 3, 0);
  const again = report.story!.shownAgain!;
  expect(again.of).toBe(3);
  expect(again.shown).toBeGreaterThan(0);
  expect(again.shown).toBeLessThan(3);
  expect(printed(report)).toContain(
    `  Not every replay within this run showed it (${again.shown} of 3): it depends on timing, names or what else the target held, and may not show again.`,
  );
}, 120_000);
