/**
 * The spec-only server (issue 48): written from the spec alone by someone who had not read the
 * kit's code, in a style unlike the independent server's (a `Link` header for every next page,
 * bodies that are the metadata or the content themselves, limits per field, a cascade and a
 * search index that complete within documented windows), with 17 flaws of its writer's choosing
 * (flaws.ts; DESIGN.md says every choice). Described by target.yaml as its CI owner would, from
 * DESIGN.md. Its own smoke run and flaw probes run here first: the server is what it says.
 */
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { startExploreModel } from '../../src/bin/mock-target.ts';
import { CHECKS } from '../../src/contract/checks/index.ts';
import { explore } from '../../src/contract/explore/explore.ts';
import { runContract } from '../../src/contract/runner.ts';
import { parseTargetDescription } from '../../src/contract/target-api/load.ts';
import { startSpecOnlyServer, type SpecOnlyServer } from './server.ts';
import type { FlawName } from './flaws.ts';
import { SEEDS } from '../contract/proofs/explore-independent.ts';
import { DEEP_FULL } from '../support/deep.ts';

const HERE = fileURLToPath(new URL('.', import.meta.url));

/** `node --import tsx <script>` in this folder: its exit code and output. */
function script(name: string): Promise<{ code: number; output: string }> {
  return new Promise((done) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', `${HERE}${name}`],
      { timeout: 60_000 },
      (error, stdout, stderr) =>
        done({
          code: error ? (typeof error.code === 'number' ? error.code : 1) : 0,
          output: stdout + stderr,
        }),
    );
  });
}

let server: SpecOnlyServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** The fixed suite, destructive, against a fresh correct server, described by target.yaml (edited). */
async function suite(checks: typeof CHECKS, edit = (text: string) => text) {
  server = await startSpecOnlyServer({});
  const { alpha, beta } = server.keys;
  return runContract({
    baseUrl: server.url,
    keys: {
      full: alpha.full,
      readonly: alpha.readOnly,
      otherAccount: beta.full,
      inactive: alpha.inactive,
    },
    checks,
    destructive: true,
    description: parseTargetDescription(
      edit(await readFile(`${HERE}target.yaml`, 'utf8')),
      'target.yaml',
    ),
  });
}

/** Explore against a fresh correct server (or with `flaws`), described by target.yaml (edited). */
async function exploreIt(
  seed: number,
  edit = (text: string) => text,
  flaws: FlawName[] = [],
  maxRequests = 1_500,
  /** How long shrinking may take (0: the story as first seen); default: the budget. */
  shrinkBudgetMs?: number,
) {
  server = await startSpecOnlyServer({ flaws });
  const { alpha, beta } = server.keys;
  return explore({
    startModel: startExploreModel,
    baseUrl: server.url,
    description: parseTargetDescription(
      edit(await readFile(`${HERE}target.yaml`, 'utf8')),
      'target.yaml',
    ),
    keys: {
      full: alpha.full,
      readonly: alpha.readOnly,
      otherAccount: beta.full,
      inactive: alpha.inactive,
    },
    seed,
    budgetMs: 60_000,
    maxRequests,
    shrinkBudgetMs,
  });
}

/** Its limits, as its CI owner states them once the report named them (DESIGN.md §6). */
const DECLARED = (text: string) =>
  text.replace(
    /^limits:\n/m,
    'limits:\n  depth: 4\n  metadataBytes: 1024\n  contentBytes: 16384\n',
  );

describe('the spec-only server', () => {
  it('passes its own smoke run, and each flaw fails its probe while the correct server passes it', async () => {
    const smoke = await script('smoke.ts');
    expect(smoke.code, smoke.output).toBe(0);
    const flaws = await script('flaws-check.ts');
    expect(flaws.code, flaws.output).toBe(0);
  }, 90_000);

  it('the fixed suite, destructive, finds no failure and leaves nothing behind', async () => {
    const report = await suite(CHECKS);
    expect(report.results.filter((r) => r.outcome === 'fail')).toEqual([]);
    expect(report.leftBehind).toEqual([]);
  }, 60_000);

  it("judges its delayed cascade within the description's window (consistency.cascade), and fails it without one", async () => {
    const cascade = CHECKS.filter((check) => check.id === 'delete.cascade');
    const within = await suite(cascade);
    expect(within.results.map((r) => r.outcome)).toEqual(['pass']);
    expect(within.settle.polls).toBeGreaterThan(0);
    await server?.close();
    const unsaid = await suite(cascade, (text) => text.replace(/^consistency:[\s\S]*$/m, ''));
    expect(unsaid.results.map((r) => [r.outcome, r.broken])).toEqual([['fail', 'DEL-2']]);
  }, 60_000);

  describe.each([...SEEDS])('explore, seed %i', (seed) => {
    it('tells no story on the correct server, and names the limits its description leaves out', async () => {
      const report = await exploreIt(seed);
      expect(report.story, JSON.stringify(report.story, null, 2)).toBeUndefined();
      expect(report.leftBehind).toEqual([]);
      expect(report.limits?.map((limit) => limit.measure)).toContain('depth');
      expect(report.limits?.find((limit) => limit.measure === 'depth')).toMatchObject({
        smallest: 5,
        largestTaken: 4,
      });
    }, 90_000);

    // @note DEEP=full only: a run that meets nothing is the whole bound's length.
    (DEEP_FULL ? it : it.skip)(
      'meets none of them once they are declared',
      async () => {
        const report = await exploreIt(seed, DECLARED);
        expect(report.story, JSON.stringify(report.story, null, 2)).toBeUndefined();
        expect(report.limits ?? []).toEqual([]);
      },
      90_000,
    );
  });

  it("judges a hit's whole object by the object's rules (search.hitObject): a hit without its system fields is OBJ-3", async () => {
    const flaws: FlawName[] = ['hit-object-drops-system-fields'];
    // @note The clause is what is proven here, not how short the story shrinks: as first seen.
    const judged = await exploreIt(1, DECLARED, flaws, undefined, 0);
    expect(judged.story?.clause).toBe('OBJ-3');
    // @note The half without hitObject (a whole bound that finds nothing) with DEEP=full only.
    if (!DEEP_FULL) return;
    await server?.close();
    // Described without it, a hit is looked at for its content alone: nothing to see.
    // (1,000 requests: with hitObject it is found within 823 on seed 1.)
    const unsaid = await exploreIt(
      1,
      (text) => DECLARED(text).replace(/^ {2}hitObject: .*$/m, ''),
      flaws,
      1_000,
    );
    expect(unsaid.story).toBeUndefined();
  }, 120_000);
});
