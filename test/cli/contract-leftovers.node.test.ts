/**
 * A destructive run leaves nothing behind: not when the target's create answers break our
 * document, and when the run is killed half-way, only records named with its run id and start
 * time, which `answers-contract sweep` then removes, and nothing else.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { CHECKS } from '../../src/contract/checks/index.ts';
import { runContract } from '../../src/contract/runner.ts';
import { runStartedAt } from '../../src/contract/sweep.ts';
import { createMock, type AnswersMock } from '../../src/index.ts';
import { startServer, type RunningServer } from '../../src/node/server.ts';
import { KEYS } from '../support/keys.ts';
import { startProxy, type RunningProxy } from '../support/proxy.ts';
import { binPath } from '../support/bins.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const PREFIX = '/api/answers/v1';
const CREATE = /\/collections(\/[^/]+\/objects)?(\?.*)?$/;

let server: RunningServer | undefined;
let proxy: RunningProxy | undefined;
afterEach(async () => {
  await proxy?.close();
  await server?.close();
  proxy = server = undefined;
});

const names = (mock: AnswersMock) => mock.controls.export().collections.map((c) => c.name);

describe('a destructive run cleans up after itself', () => {
  it('deletes what it created even when every create answer breaks our document', async () => {
    const mock = await createMock();
    const before = names(mock);
    server = await startServer({ mock, port: 0, quiet: true });
    // Timestamps without milliseconds and an extra member: valid JSON, invalid for openapi.yaml.
    proxy = await startProxy(server.url, {
      after: (request, status, json) =>
        request.method === 'POST' && status === 201 && CREATE.test(request.url)
          ? {
              ...(json as object),
              created_at: '2026-01-01T00:00:00Z',
              extra: true,
            }
          : json,
    });
    const report = await runContract({
      baseUrl: `${proxy.url}${PREFIX}`,
      keys: { full: KEYS.full, readonly: KEYS.readonly, otherAccount: KEYS.globex },
      checks: CHECKS,
      destructive: true,
      level: 'profile',
    });
    // The answers really were refused by our document...
    expect(report.levels.profile.fail).toBeGreaterThan(0);
    // ...and still nothing is left, on the target or in the report.
    expect(report.leftBehind).toEqual([]);
    expect(names(mock)).toEqual(before);
  });

  // A create answering an existing collection: test/regressions/create-answers-existing-id.

  it('killed half-way leaves only run-named records, which sweep removes', async () => {
    const mock = await createMock();
    const before = names(mock);
    server = await startServer({ mock, port: 0, quiet: true });
    const spawnedAt = Date.now();
    let creates = 0;
    let kill = () => {};
    proxy = await startProxy(server.url, {
      sent: (request, status) => {
        if (request.method === 'POST' && status === 201 && CREATE.test(request.url)) {
          creates += 1;
          if (creates === 3) kill();
        }
      },
    });
    const child = spawn(
      process.execPath,
      [
        binPath('answers-contract'),
        '--base-url',
        `${proxy.url}${PREFIX}`,
        '--api-key',
        KEYS.full,
        '--destructive',
      ],
      { cwd: ROOT, stdio: 'ignore' },
    );
    const exited = new Promise<NodeJS.Signals | null>((resolve) =>
      child.on('exit', (_code, signal) => resolve(signal)),
    );
    kill = () => child.kill('SIGKILL');
    expect(await exited).toBe('SIGKILL');
    expect(creates).toBeGreaterThanOrEqual(3);

    const left = names(mock).filter((name) => !before.includes(name));
    expect(left.length).toBeGreaterThan(0);
    const runIds = new Set(
      left.map((name) => /^answers-contract-([0-9a-z]+)-t\d+-/.exec(name)?.[1] ?? name),
    );
    expect(runIds.size).toBe(1);
    const [runId] = [...runIds];
    const started = runStartedAt(runId!)!;
    expect(started).toBeGreaterThanOrEqual(spawnedAt);
    expect(started).toBeLessThanOrEqual(Date.now());

    const sweep = spawn(
      process.execPath,
      [
        binPath('answers-contract'),
        'sweep',
        '--base-url',
        `${server.url}${PREFIX}`,
        '--api-key',
        KEYS.full,
        // A run killed with SIGKILL left its heartbeat behind: its process is gone, so sweep
        // takes its data.
        '--run',
        runId!,
      ],
      { cwd: ROOT, stdio: 'ignore' },
    );
    expect(await new Promise((resolve) => sweep.on('exit', resolve))).toBe(0);
    expect(names(mock)).toEqual(before);
  }, 90_000);
});
