/**
 * `answers-contract explore` as a command and an entry point: a set-up error is exit 2, it refuses
 * to run without --destructive, it runs from code, and the docs list its variants as they are.
 * What it finds over seeds and variants is proven in test/contract/proofs/ (deep tier).
 */
import { spawnSync } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { beforeAll, expect, it } from 'vitest';
import { startExploreModel } from '../../src/bin/mock-target.ts';
import { explore } from '../../src/contract/explore/explore.ts';
import { TargetError } from '../../src/contract/runner.ts';
import { loadTargetFile } from '../../src/contract/target-api/load.ts';
import type { TargetDescription } from '../../src/contract/target-api/description.ts';
import { startIndependentServer } from '../independent/server.ts';
import { EXPLORE_VARIANTS } from '../independent/explore-variants.ts';
import { binPath, contractBin } from '../support/bins.ts';

let description: TargetDescription;

beforeAll(async () => {
  description = await loadTargetFile(
    fileURLToPath(new URL('../independent/target.yaml', import.meta.url)),
  );
});

it('exits 2 when the target does not answer, saying so (a set-up error, not a divergence)', () => {
  const ran = spawnSync(
    process.execPath,
    [
      binPath('answers-contract'),
      'explore',
      '--destructive',
      '--base-url',
      'http://127.0.0.1:9/',
      '--api-key',
      'k',
    ],
    { encoding: 'utf8' },
  );
  expect(ran.status).toBe(2);
  expect(ran.stderr).toContain('cannot reach http://127.0.0.1:9');
  expect(ran.stdout).not.toContain('DIVERGED');
});

// @note As the suite and replay ask (Run.preflight): before, explore ran against a server that
// answers its description's paths with 404 throughout and reported a divergence of every list.
it('ends as a set-up error on a target that answers 404 at every path of its description', async () => {
  const server = createServer((request, response) => {
    request.resume();
    response.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"no route"}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const ended = await explore({
      startModel: startExploreModel,
      baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/answers/v1`,
      keys: { full: 'k' },
      seed: 1,
      budgetMs: 5_000,
      maxRequests: 200,
    }).then(
      (report) => expect.fail(`explore ran: ${JSON.stringify(report.story?.clause)}`),
      (error: unknown) => error,
    );
    expect(ended).toBeInstanceOf(TargetError);
    expect((ended as Error).message).toMatch(/answered 404.*is --base-url right/);
  } finally {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});

it('refuses to run without --destructive, saying why', () => {
  const ran = spawnSync(
    process.execPath,
    contractBin('explore', '--base-url', 'http://127.0.0.1:9/', '--api-key', 'k'),
    { encoding: 'utf8' },
  );
  expect(ran.status).toBe(2);
  expect(ran.stderr).toContain('--destructive');
});

it('docs/independent-server.md lists exactly the variants only explore finds', async () => {
  const { readFile } = await import('node:fs/promises');
  const doc = await readFile(new URL('../../docs/independent-server.md', import.meta.url), 'utf8');
  const section = doc.slice(doc.indexOf('## Variants only `explore` finds'));
  const rows = [...section.matchAll(/^\| `([A-Z0-9-]+)` +\| `([a-z0-9-]+)` +\|/gm)].map(
    ([, clause, variant]) => [variant, clause],
  );
  expect(rows).toEqual(EXPLORE_VARIANTS.map((row) => [row.variant, row.clause]));
});

it('runs from code through the entry points: explore from ./contract, its model from ./node', async () => {
  const contract = await import('../../src/contract/index.ts');
  const node = await import('../../src/node/index.ts');
  const server = await startIndependentServer();
  try {
    const report = await contract.explore({
      baseUrl: server.url,
      description,
      keys: server.keys,
      startModel: node.startExploreModel,
      seed: 5,
      maxRequests: 500,
    });
    expect(report.story).toBeUndefined();
    expect(report.requests).toBeGreaterThanOrEqual(500);
    expect(report.leftBehind).toEqual([]);
  } finally {
    await server.close();
  }
}, 30_000);
