/**
 * A matrix of correct designs (issue 35), explored: `explore` (seeds 1, 2, 3, bounded in
 * requests) against the independent server made each way of the pairwise covering set of
 * test/independent/designs.ts, each with the description it needs. Every design is correct: a
 * story is a false alarm of the kit. A row and seed that tell one today are marked `it.fails`
 * with the clause and message explore printed, so the day the kit is fixed the test flips.
 * The fixed suite over the same designs: test/independent/designs.node.test.ts.
 * Deep tier (test/README.md): seed 1 by default, seeds 1-3 with DEEP=full, and each for its whole
 * 60 s with DEEP=soak.
 */
import { describe, expect, it } from 'vitest';
import { startExploreModel } from '../../../src/bin/mock-target.ts';
import { explore } from '../../../src/contract/explore/explore.ts';
import { parseTargetDescription } from '../../../src/contract/target-api/load.ts';
import {
  DESIGNS,
  descriptionText,
  designName,
  serverOptions,
  settleMsOf,
} from '../../independent/designs.ts';
import { startIndependentServer } from '../../independent/server.ts';
import { SEEDS } from './explore-independent.ts';
import { DEEP_FULL, DEEP_SOAK } from '../../support/deep.ts';

/**
 * The bound of each run: requests (both sides counted), so what is found is the machine's speed's
 * no matter. Under DEEP=full 20,000 (10 to 20 s each here): false alarms hide in long histories
 * (a search by query string judged as if scoped by a body showed only once sequences grew longer).
 */
const MAX_REQUESTS = DEEP_SOAK ? Number.MAX_SAFE_INTEGER : DEEP_FULL ? 20_000 : 1_500;
/** How long a read after a write may wait for a lagging index (`--settle`). */
const SETTLE_MS = 5_000;

/**
 * The false alarms explore tells today, by `<row index>:<seed>`: the clause and message it
 * printed. Such a test is `it.fails`: green while explore tells it, red the day it no longer does.
 * Empty since the three this matrix found were fixed (issue 35): a string past the server's
 * limit (now `limits.string` in the description), collections that tie on their creation date
 * (now in any order among themselves), and 404 for what the caller never could see (now
 * accepted beside the description's gone and not-yours statuses).
 */
const FALSE_ALARMS = new Map<string, string>([]);

describe('explore against each correct design', () => {
  DESIGNS.forEach((row, i) => {
    describe(`#${i + 1} ${designName(row)}`, () => {
      for (const seed of SEEDS) {
        const alarm = FALSE_ALARMS.get(`${i}:${seed}`);
        (alarm ? it.fails : it)(
          `seed ${seed}: no story, nothing left behind${alarm ? ` (false alarm: ${alarm})` : ''}`,
          async () => {
            const server = await startIndependentServer(serverOptions(row));
            try {
              const report = await explore({
                startModel: startExploreModel,
                baseUrl: server.url,
                description: parseTargetDescription(
                  descriptionText(row),
                  `designs.ts: ${designName(row)}`,
                ),
                keys: server.keys,
                seed,
                budgetMs: 60_000,
                maxRequests: MAX_REQUESTS,
                settleMs: settleMsOf(row, SETTLE_MS),
              });
              // @note The soak's figures, for the issue's note: what each 60 s covered.
              if (DEEP_SOAK)
                console.log(
                  `soak #${i + 1} seed ${seed}: ${report.sequences} sequences, ${report.requests} requests, ${report.sentToTarget} to the target, ${Math.round(report.elapsedMs / 1000)} s, story ${report.story?.clause ?? 'none'}, left ${report.leftBehind.length}`,
                );
              expect(report.leftBehind).toEqual([]);
              expect(report.story, JSON.stringify(report.story, null, 2)).toBeUndefined();
              // @note Issue 48: a limit the description leaves out is learned and reported, not
              // judged. Under DEEP=full (20,000 requests) every run of rows 2, 4 and 15 met
              // `metadataBytes` (smallest refused 8,201 to 10,027 bytes); none nested 9 deep.
              if (row.fieldLimits === 'undeclared' && DEEP_FULL)
                expect(report.limits?.map((limit) => limit.measure)).toContain('metadataBytes');
            } finally {
              await server.close();
            }
          },
          DEEP_SOAK ? 120_000 : 90_000,
        );
      }
    });
  });
});
