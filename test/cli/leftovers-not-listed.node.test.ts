/**
 * A run whose clean-up cannot list what it left (the target's list refused at the end) says so,
 * and still prints the line that deletes its data: its run id and `sweep --run <id>`. The suite,
 * explore and replay, each against the mock behind a proxy whose list of collections answers 500.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runStartedAt } from '../../src/contract/target-api/run-name.ts';
import { createMock } from '../../src/index.ts';
import { startServer, type RunningServer } from '../../src/node/server.ts';
import { contract } from '../support/contract-cli.ts';
import { KEYS } from '../support/keys.ts';
import { startProxy, type RunningProxy } from '../support/proxy.ts';
import { recordFlows } from '../support/recorded-flows.ts';

const LIST = /^\/api\/answers\/v1\/collections(\?.*)?$/;
const SWEEP_LINE =
  /^Delete the rest of this run's data with: npx --no -- answers-contract sweep --base-url (\S+) --run ([0-9a-z]{12,13})$/m;

let server: RunningServer;
let proxy: RunningProxy;
let dir: string;
let base: string;
beforeAll(async () => {
  server = await startServer({ mock: await createMock(), port: 0, quiet: true });
  proxy = await startProxy(server.url, {
    before: (request) =>
      request.method === 'GET' && LIST.test(request.url)
        ? { status: 500, body: '{"code":"unavailable"}' }
        : undefined,
  });
  base = `${proxy.url}/api/answers/v1`;
  dir = await mkdtemp(join(tmpdir(), 'leftovers-not-listed-'));
});
afterAll(async () => {
  await proxy.close();
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

/** The run's output says it could not list, and names its run id in the sweep line. */
function expectSweepLine(stdout: string, startedBy: number) {
  expect(stdout).toMatch(/could not list/);
  const line = SWEEP_LINE.exec(stdout);
  expect(line, stdout).not.toBeNull();
  expect(line![1]).toBe(base);
  const started = runStartedAt(line![2]!)!;
  expect(started).toBeGreaterThanOrEqual(startedBy);
  expect(started).toBeLessThanOrEqual(Date.now());
  return line![2]!;
}

const target = () => ['--base-url', base, '--api-key', KEYS.full, '--destructive'];

describe('a run that cannot list its leftovers still prints the sweep --run line', () => {
  it('the suite', async () => {
    const startedBy = Date.now();
    const run = await contract(target());
    expect(run.code, run.stderr).toBe(1);
    expectSweepLine(run.stdout, startedBy);
  }, 60_000);

  it('explore', async () => {
    const startedBy = Date.now();
    const run = await contract([
      'explore',
      ...target(),
      '--seed',
      '1',
      '--budget',
      '1s',
      '--shrink-budget',
      '0s',
    ]);
    expect(run.code, run.stderr).toBe(1);
    expectSweepLine(run.stdout, startedBy);
  }, 60_000);

  it('replay', async () => {
    const file = join(dir, 'flows.json');
    await writeFile(file, JSON.stringify(await recordFlows(2)));
    const startedBy = Date.now();
    const run = await contract(['replay', file, ...target()]);
    expect(run.code, run.stderr).toBe(1);
    const runId = expectSweepLine(run.stdout, startedBy);
    expect(run.stdout).toContain(`Run id: ${runId}.`);
  }, 60_000);
});
