/**
 * `answers-contract explore` (src/contract/explore/) proven: random sequences compared with the
 * kit's mock must agree with correct implementations (the mock over HTTP and the independent
 * server), find the seeded bugs of the independent server and shrink each to a short story, and
 * replay a story exactly. The bugs only explore finds: explore-beyond-fixed-checks.node.test.ts.
 * Deep tier (test/README.md): seed 1 by default, seeds 1-3 with DEEP=full.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startExploreModel } from '../../../src/bin/mock-target.ts';
import { explore } from '../../../src/contract/explore/explore.ts';
import { createMock } from '../../../src/index.ts';
import { startServer, type RunningServer } from '../../../src/node/server.ts';
import { emptyState } from '../../../src/seed/empty-state.ts';
import { startIndependentServer } from '../../independent/server.ts';
import type { VariantName } from '../../independent/variants.ts';
import { AGREEING, exploreIndependent, FINDING, SEEDS } from './explore-independent.ts';

describe('explore against correct implementations', () => {
  let mockServer: RunningServer;
  beforeAll(async () => {
    mockServer = await startServer({
      mock: await createMock({ initialState: emptyState }),
      port: 0,
      quiet: true,
    });
  });
  afterAll(() => mockServer.close());

  it.each(SEEDS)(
    'agrees with the mock itself over HTTP (seed %i)',
    async (seed) => {
      const report = await explore({
        startModel: startExploreModel,
        baseUrl: `${mockServer.url}/api/answers/v1`,
        keys: {
          full: 'answers_test_full_acme',
          readonly: 'answers_test_readonly_acme',
          otherAccount: 'answers_test_full_globex',
          inactive: 'answers_test_inactive_acme',
        },
        seed,
        budgetMs: 60_000,
        maxRequests: AGREEING,
      });
      expect(report.story, JSON.stringify(report.story, null, 2)).toBeUndefined();
      expect(report.requests).toBeGreaterThanOrEqual(AGREEING);
      expect(report.leftBehind).toEqual([]);
    },
    60_000,
  );

  it.each(SEEDS)(
    'agrees with the independent server (seed %i)',
    async (seed) => {
      const report = await exploreIndependent({ seed, maxRequests: AGREEING, concurrency: 4 });
      expect(report.story, JSON.stringify(report.story, null, 2)).toBeUndefined();
      expect(Object.keys(report.coverage.operations).sort()).toEqual(
        [
          'createCollection',
          'createObject',
          'deleteCollection',
          'getCollection',
          'getObject',
          'listCollections',
          'listObjects',
          'search',
          'updateCollection',
          'replaceObject',
          'updateObject',
          'deleteObject',
        ].sort(),
      );
      expect(report.leftBehind).toEqual([]);
    },
    60_000,
  );
});

describe('explore against seeded bugs', () => {
  // A bug may break more than one clause: the story names the one its shortest sequence shows.
  const found: Array<[VariantName, string[]]> = [
    ['count-wrong', ['COLL-2']],
    ['object-other-account', ['ISO-1', 'OBJ-GET-1', 'OBJ-2']],
    ['other-account-collection-readable', ['ISO-1', 'COLL-GET-1', 'COLL-3', 'DEL-1', 'OBJ-1']],
    ['soft-delete', ['DEL-1']],
    ['no-cascade', ['DEL-2']],
    ['system-fields-missing', ['OBJ-3']],
    ['object-content-dropped', ['OBJ-GET-1']],
    ['search-leaks-accounts', ['ISO-1']],
  ];
  it.each(found)(
    'finds %s, names one of %j and shrinks it to at most 8 steps',
    async (variant, clauses) => {
      const report = await exploreIndependent({ variant, seed: 1, maxRequests: FINDING });
      expect(clauses, report.story?.message).toContain(report.story?.clause);
      expect(report.story!.steps.length).toBeLessThanOrEqual(8);
      expect(report.leftBehind).toEqual([]);
    },
    30_000,
  );

  it('replays exactly the sequence a story names, from its seed and path', async () => {
    const server = await startIndependentServer({ variant: 'no-cascade' });
    try {
      const first = await exploreIndependent({ seed: 7, maxRequests: FINDING }, server);
      const { seed, path } = first.story!;
      const again = await exploreIndependent(
        { seed, replayPath: path, maxRequests: FINDING },
        server,
      );
      expect(again.sequences).toBe(1);
      expect(again.story?.clause).toBe(first.story!.clause);
      // The run's names differ (a new run id); the steps are the same.
      const shape = (steps: Array<{ request: string }>) =>
        steps.map((step) =>
          step.request.replace(/answers-contract-\S+/, 'NAME').replace(/zq\w+w(\d)\b/, 'word $1'),
        );
      expect(shape(again.story!.steps)).toEqual(shape(first.story!.steps));
    } finally {
      await server.close();
    }
  }, 30_000);
});
