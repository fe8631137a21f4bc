/**
 * A bug that shows in about half of all replays is reported on every run: a get of a collection
 * drops its metadata when the collection's id hashes to an even number (a bug of ids: a hash
 * order, a cache keyed by a slice of the id). Each replay of the sequence makes new ids, so a
 * replay shows it about one time in two; explore reports what it saw, as first seen when its
 * replays do not hold it (issue 35: "never green on a bug it saw", 10 of 10 runs).
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { explore } from '../../../src/contract/explore/explore.ts';
import { createMock } from '../../../src/index.ts';
import { startExploreModel } from '../../../src/node/index.ts';
import { startServer, type RunningServer } from '../../../src/node/server.ts';
import { emptyState } from '../../../src/seed/empty-state.ts';
import { DEEP_FULL } from '../../support/deep.ts';
import { KEYS } from '../../support/keys.ts';
import { startProxy, type RunningProxy } from '../../support/proxy.ts';

const PREFIX = '/api/answers/v1';
const GET_COLLECTION = /\/collections\/([^/?]+)$/;
/** The bug's coin: a string hash of the id (FNV-1a), even or odd. */
const even = (id: string) =>
  [...id].reduce((hash, c) => Math.imul(hash ^ c.charCodeAt(0), 16777619) >>> 0, 2166136261) % 2 ===
  0;

let server: RunningServer;
let proxy: RunningProxy;
beforeAll(async () => {
  server = await startServer({
    mock: await createMock({ initialState: emptyState }),
    port: 0,
    quiet: true,
  });
  proxy = await startProxy(server.url, {
    after: (request, status, json) => {
      const id = GET_COLLECTION.exec(request.url)?.[1];
      if (request.method !== 'GET' || status !== 200 || !id || !even(id)) return json;
      return { ...(json as object), metadata: {} };
    },
  });
});
afterAll(async () => {
  await proxy.close();
  await server.close();
});

/** 10 runs under DEEP=full (issue 35: reported on 10 of 10); 4 in each .ci/run. */
const RUNS = DEEP_FULL ? [1, 2, 3, 4, 5, 6, 7, 8, 9, 10] : [1, 2, 3, 4];

it(`is reported on ${RUNS.length} runs of ${RUNS.length}, each saying how many of its replays showed it again`, async () => {
  const runs = [];
  for (const seed of RUNS) {
    const report = await explore({
      baseUrl: `${proxy.url}${PREFIX}`,
      keys: { full: KEYS.full, readonly: KEYS.readonly, otherAccount: KEYS.globex },
      startModel: startExploreModel,
      seed,
      maxRequests: 4_000,
      budgetMs: 60_000,
      lanes: 1,
    });
    runs.push({ seed, clause: report.story?.clause, shownAgain: report.story?.shownAgain });
    expect(report.leftBehind, `seed ${seed}`).toEqual([]);
  }
  expect(runs.filter((run) => run.clause !== 'COLL-3')).toEqual([]);
  // The bug is one replays do not always show, else the runs above prove less.
  expect(runs.some(({ shownAgain }) => shownAgain!.shown < shownAgain!.of)).toBe(true);
}, 300_000);
