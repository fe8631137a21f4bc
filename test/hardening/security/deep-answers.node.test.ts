/**
 * A target whose answers nest 100,000 levels deep (a collection's metadata, as its get answers
 * it): the suite, explore and replay read it, print it and compare it, and each ended with
 * "Maximum call stack size exceeded" (explore and replay as an internal error). Now the answer is
 * not read: the check fails, or the run diverges, naming the depth (LIMITS.maxAnswerDepth).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHECKS } from '../../../src/contract/checks/index.ts';
import { explore } from '../../../src/contract/explore/explore.ts';
import { LIMITS } from '../../../src/contract/limits.ts';
import { replay } from '../../../src/contract/replay/replay.ts';
import { runContract } from '../../../src/contract/runner.ts';
import { createMock } from '../../../src/index.ts';
import { startExploreModel } from '../../../src/node/index.ts';
import { startServer, type RunningServer } from '../../../src/node/server.ts';
import { KEYS } from '../../support/keys.ts';
import { startProxy, type RunningProxy } from '../../support/proxy.ts';
import { recordFlows } from '../../support/recorded-flows.ts';

const LEVELS = 100_000;
const DEEP = `${'['.repeat(LEVELS)}${']'.repeat(LEVELS)}`;
const COLLECTIONS = '/api/answers/v1/collections';
/** A collection as its create and its get answer it (one collection, not the list). */
const deepened = (method: string, url: string) =>
  (method === 'POST' && url === COLLECTIONS) ||
  (method === 'GET' &&
    url.startsWith(`${COLLECTIONS}/`) &&
    !/[/?]/.test(url.slice(COLLECTIONS.length + 1)));
const TOO_DEEP = new RegExp(
  `the answer nests objects and arrays deeper than ${LIMITS.maxAnswerDepth} levels: not read`,
);
const keys = { full: KEYS.full, readonly: KEYS.readonly, otherAccount: KEYS.globex };

let server: RunningServer;
let proxy: RunningProxy;
let base: string;
beforeAll(async () => {
  server = await startServer({ mock: await createMock(), port: 0, quiet: true });
  proxy = await startProxy(server.url, {
    // Written as text: no JSON.stringify can write it.
    afterText: (request, status, text) =>
      status >= 200 && status < 300 && deepened(request.method, request.url)
        ? text.replace('"metadata":{', `"metadata":{"deep":${DEEP},`)
        : text,
  });
  base = `${proxy.url}/api/answers/v1`;
});
afterAll(async () => {
  await proxy.close();
  await server.close();
});

describe('an answer nested 100,000 deep is refused naming the depth, never a stack overflow', () => {
  it('the suite: the checks that read it fail naming the depth', async () => {
    const report = await runContract({ baseUrl: base, keys, checks: CHECKS, destructive: true });
    const said = [...report.results.map((r) => r.reason ?? ''), ...report.leftBehind].join('\n');
    expect(said).not.toMatch(/call stack|the check itself failed/);
    expect(report.results.find((r) => r.id === 'collection.get')?.reason).toMatch(TOO_DEEP);
  }, 60_000);

  it('explore: a divergence naming the depth', async () => {
    const report = await explore({
      baseUrl: base,
      keys,
      startModel: startExploreModel,
      seed: 1,
      budgetMs: 2_000,
      shrinkBudgetMs: 0,
    });
    expect(report.story?.message).toMatch(TOO_DEEP);
  }, 60_000);

  it('replay: a divergence naming the depth', async () => {
    const report = await replay({
      baseUrl: base,
      keys,
      recording: await recordFlows(1),
      destructive: true,
    });
    expect(report.sequences[0]?.divergence?.message).toMatch(TOO_DEEP);
  }, 60_000);
});
