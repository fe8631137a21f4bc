/**
 * A rule explore could not have seen broken is never reported as covered, and where explore can
 * make it observable it does. A target whose creation dates are whole seconds gives the
 * collections a quick sequence creates one date: any order of them is right, and a list-order
 * bug passes. Explore learns the clock's resolution from the dates it is answered and spaces the
 * creations a later walk orders past it; a clock too coarse to wait out (whole days) leaves the
 * order not judged, and the run says so per clause, never 100 %.
 * Against the independent server behind a loopback proxy that swaps the first two collections of
 * every page of the list (a comparator off by one).
 */
import { afterEach, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { startExploreModel } from '../../src/bin/mock-target.ts';
import { ContractClient } from '../../src/contract/client.ts';
import { Coverage } from '../../src/contract/explore/comparison.ts';
import { clauseCoverage, formatClauseCoverage } from '../../src/contract/explore/coverage.ts';
import { CreationClock, spacingOf } from '../../src/contract/explore/creation-clock.ts';
import { explore, type ExploreModel } from '../../src/contract/explore/explore.ts';
import { runStep, type Step } from '../../src/contract/explore/steps/index.ts';
import { World } from '../../src/contract/explore/world.ts';
import { Divergence } from '../../src/contract/judges/verdict.ts';
import { DEFAULT_DESCRIPTION } from '../../src/contract/target-api/description.ts';
import { loadTargetFile } from '../../src/contract/target-api/load.ts';
import { Target } from '../../src/contract/target-api/target.ts';
import type { Ties } from '../independent/store.ts';
import { startIndependentServer, type IndependentServer } from '../independent/server.ts';
import { startProxy, type RunningProxy } from '../support/proxy.ts';

let server: IndependentServer | undefined;
let proxy: RunningProxy | undefined;
let model: ExploreModel | undefined;
afterEach(async () => {
  await proxy?.close();
  await server?.close();
  await model?.stop();
  proxy = server = model = undefined;
});

const described = () =>
  loadTargetFile(fileURLToPath(new URL('../independent/target.yaml', import.meta.url)));

/** The first two items of every page of the list trade places. */
function swapped(json: unknown): unknown {
  const page = json as { items?: unknown[] };
  if (!Array.isArray(page.items) || page.items.length < 2) return json;
  const [first, second, ...rest] = page.items;
  return { ...page, items: [second, first, ...rest] };
}

/** The independent server with creation dates of `ties`, its list's order broken by a proxy. */
async function misordered(ties: Ties): Promise<{ url: string; keys: IndependentServer['keys'] }> {
  server = await startIndependentServer({ design: { ties } });
  proxy = await startProxy(server.url, {
    after: (request, status, json) =>
      request.method === 'GET' && request.url.startsWith('/v1/collections') && status === 200
        ? swapped(json)
        : json,
  });
  return { url: proxy.url, keys: server.keys };
}

it.each([1, 2, 3])(
  'a sequence that creates three collections and walks the list shows a list-order bug on a target of whole seconds (sequence %i)',
  async (sequence) => {
    const target = await misordered('second');
    model = await startExploreModel();
    const description = await described();
    const world = new World(
      new Target(description, new ContractClient(target.url, target.keys.full, false), false),
      new Target(
        DEFAULT_DESCRIPTION,
        new ContractClient(model.baseUrl, model.keys.full, false),
        false,
      ),
      target.keys,
      model.keys,
      'order',
      sequence,
      new Coverage(),
    );
    const steps: Step[] = [
      { kind: 'createCollections', key: 'full', count: 3 },
      { kind: 'walk', pageSize: 5, key: 'full' },
    ];
    // As explore does for each sequence: its creations before its walk are spaced.
    world.spacing = spacingOf(new CreationClock(), steps);
    let verdict = 'agreed';
    try {
      for (const step of steps) await runStep(world, step);
    } catch (error) {
      if (!(error instanceof Divergence)) throw error;
      verdict = error.clause;
    } finally {
      await world.run.cleanup(target.keys);
    }
    expect(verdict).toBe('COLL-LIST-3');
  },
  20_000,
);

it.each([1, 2, 3])(
  'on a target whose creation dates are whole days, explore reports the order not judged, with why, and never 100 percent (seed %i)',
  async (seed) => {
    const target = await misordered('id');
    const report = await explore({
      startModel: startExploreModel,
      baseUrl: target.url,
      description: await described(),
      keys: target.keys,
      seed,
      lanes: 1,
      maxRequests: 400,
      budgetMs: 20_000,
      shrinkBudgetMs: 0,
    });
    expect(report.story?.clause).not.toBe('COLL-LIST-3');
    const coverage = clauseCoverage(report.coverage, () => true);
    expect(coverage.reached).not.toContain('COLL-LIST-3');
    expect(coverage.percent).toBeLessThan(100);
    const order = coverage.clauses?.['COLL-LIST-3'];
    expect(order?.reached).toBeGreaterThan(0);
    expect(order?.couldFail).toBe(0);
    expect(report.coverage.notJudged?.['COLL-LIST-3']).toBeDefined();
    const text = formatClauseCoverage(coverage);
    expect(text).toMatch(/never where it could have failed: [^;\n]*COLL-LIST-3/);
    expect(text).toMatch(
      new RegExp(`^  COLL-LIST-3 reached ${order!.reached}, could fail 0 \\(not judged: `, 'm'),
    );
    expect(report.leftBehind).toEqual([]);
  },
  60_000,
);
