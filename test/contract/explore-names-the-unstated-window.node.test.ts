/**
 * Found by describing the spec-only server (test/spec-only, issue 48) without its `consistency`:
 * its collection delete removes the objects from gets within 300 ms, by design. Explore rightly
 * judged a get at once (no window was stated) and told a DEL-2 story, but nothing in it said
 * that a deployment late by design states how late: its team read a correct server as broken.
 * The story now names the window that would have covered the read, and only when none was given.
 */
import { afterEach, expect, it } from 'vitest';
import { readFile } from 'node:fs/promises';
import { startExploreModel } from '../../src/bin/mock-target.ts';
import { explore } from '../../src/contract/explore/explore.ts';
import { formatExplore } from '../../src/contract/explore/story.ts';
import { clauseCoverage } from '../../src/contract/explore/coverage.ts';
import { parseTargetDescription } from '../../src/contract/target-api/load.ts';
import { startSpecOnlyServer, type SpecOnlyServer } from '../spec-only/server.ts';

let server: SpecOnlyServer | undefined;
afterEach(() => server?.close());

/** Explore on the correct spec-only server, its description's cascade window as `cascade` says. */
async function exploreWithCascade(cascade: string) {
  server = await startSpecOnlyServer({});
  const { alpha, beta } = server.keys;
  const text = await readFile(new URL('../spec-only/target.yaml', import.meta.url), 'utf8');
  const description = parseTargetDescription(
    text.replace(/^ {2}cascade: \d+\n/m, cascade),
    'target.yaml',
  );
  return explore({
    startModel: startExploreModel,
    baseUrl: server.url,
    description,
    keys: {
      full: alpha.full,
      readonly: alpha.readOnly,
      otherAccount: beta.full,
      inactive: alpha.inactive,
    },
    seed: 1,
    budgetMs: 60_000,
    maxRequests: 1_500,
    shrinkBudgetMs: 0,
  });
}

it('names consistency.cascade in a story of a get answered after a delete, when no window was given', async () => {
  const report = await exploreWithCascade('');
  expect(report.story?.clause).toMatch(/^DEL-/);
  expect(report.story?.unwindowed).toBe('cascade');
  const printed = formatExplore(
    { ...report, clauseCoverage: clauseCoverage(report.coverage.clauses, () => true) },
    'answers-contract explore',
  );
  expect(printed).toContain('consistency: { cascade: <ms> }');
}, 60_000);

it('names no window in a story when one was given and the read still diverged', async () => {
  // A window too short for a 300 ms cascade: the read is asked again, then judged, and the story
  // says nothing of a window the run already had.
  const report = await exploreWithCascade('  cascade: 50\n');
  expect(report.story?.clause).toMatch(/^DEL-/);
  expect(report.story?.unwindowed).toBeUndefined();
}, 60_000);
