/**
 * A target that answers 429 without a Retry-After to every create of an object: explore cannot
 * wait for it, and the sequences that meet it end there, not judged, and are counted; the run
 * neither stops with an error nor reports a divergence. Before: the run threw the client's
 * "answered 429 … not judged" out of fast-check as its own error.
 */
import { afterAll, expect, it } from 'vitest';
import { startExploreModel } from '../../src/bin/mock-target.ts';
import { explore } from '../../src/contract/explore/explore.ts';
import { createMock } from '../../src/index.ts';
import { startServer } from '../../src/node/server.ts';
import { DEV_KEYS_BY_ROLE as KEYS } from '../../src/seed/dev-keys.ts';
import { startProxy } from '../support/proxy.ts';

const closers: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const close of closers.splice(0)) await close();
});

it('ends the sequences a 429 it cannot wait for stops, not judged, and counts them', async () => {
  const server = await startServer({ mock: await createMock(), port: 0, quiet: true });
  closers.push(() => server.close());
  const proxy = await startProxy(server.url, {
    before: (request) =>
      request.method === 'POST' && /\/objects$/.test(request.url)
        ? { status: 429, body: JSON.stringify({ title: 'too many requests' }) }
        : undefined,
  });
  closers.push(() => proxy.close());
  const report = await explore({
    baseUrl: `${proxy.url}/api/answers/v1`,
    keys: KEYS,
    startModel: startExploreModel,
    seed: 1,
    lanes: 1,
    maxRequests: 400,
  });
  expect(report.story).toBeUndefined();
  expect(report.pushedOff?.count).toBeGreaterThan(0);
  expect(report.pushedOff?.reason).toMatch(/answered 429/);
  expect(report.leftBehind).toEqual([]);
}, 60_000);
