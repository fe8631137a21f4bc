/**
 * `sweep` never deletes the data of a run still going on: on the machine the run runs on, the
 * run's heartbeat keeps its data, `--run` included; from anywhere, `--older-than` is at least
 * 1 h. `sweep --older-than 5s` deleted a live explore run's collection, and explore reported the
 * target's divergence (issue 46). Once the run has ended, its data and older runs' are swept.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { parseRunName, runName } from '../../src/contract/target-api/run-name.ts';
import { createMock, type AnswersMock } from '../../src/index.ts';
import { startServer, type RunningServer } from '../../src/node/server.ts';
import { contract } from '../support/contract-cli.ts';
import { KEYS } from '../support/keys.ts';
import { startProxy, type RunningProxy } from '../support/proxy.ts';
import { binPath } from '../support/bins.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const PREFIX = '/api/answers/v1';

let server: RunningServer | undefined;
let proxy: RunningProxy | undefined;
afterEach(async () => {
  await proxy?.close();
  await server?.close();
  proxy = server = undefined;
});

/** Creates a collection named `name` in the mock, as a run would have: its id. */
async function plant(mock: AnswersMock, name: string): Promise<string> {
  const created = await mock.handle({
    method: 'POST',
    path: `${PREFIX}/collections`,
    query: new URLSearchParams(),
    headers: new Headers({
      authorization: `Bearer ${KEYS.full}`,
      'content-type': 'application/json',
    }),
    body: new TextEncoder().encode(JSON.stringify({ name })),
  });
  return (JSON.parse(created.response.body!) as { id: string }).id;
}

const names = (mock: AnswersMock) => mock.controls.export().collections.map((c) => c.name);

describe('sweep during a live run', () => {
  it('keeps the live run’s data (explore agrees), refuses --older-than under 1h, and sweeps once the run has ended', async () => {
    const mock = await createMock();
    const threeHoursAgo = Date.now() - 3 * 3_600_000;
    const old = await plant(mock, runName(`${threeHoursAgo.toString(36)}dead`, 't1-main'));
    server = await startServer({ mock, port: 0, quiet: true });
    const direct = `${server.url}${PREFIX}`;
    const sweep = (...args: string[]) =>
      contract(['sweep', '--base-url', direct, '--api-key', KEYS.full, ...args]);

    // At explore's first collection, sweep runs twice while the run's deletes wait: the
    // collection is there for sweep to find.
    let during: Promise<void> | undefined;
    const seen: {
      runId?: string;
      name?: string;
      kept?: boolean;
      byRun?: unknown;
      short?: unknown;
    } = {};
    proxy = await startProxy(server.url, {
      hold: (request) => (request.method === 'DELETE' ? during : undefined),
      sent: (request, status) => {
        if (during || request.method !== 'POST' || status !== 201) return;
        if (!/\/collections$/.test(request.url)) return;
        const name = (JSON.parse(request.body) as { name: string }).name;
        seen.name = name;
        seen.runId = parseRunName(name)!.runId;
        during = (async () => {
          seen.byRun = await sweep('--run', seen.runId!);
          seen.short = await sweep('--older-than', '5s');
          seen.kept = names(mock).includes(name);
        })();
      },
    });
    const explore = spawn(
      process.execPath,
      [
        binPath('answers-contract'),
        'explore',
        '--base-url',
        `${proxy.url}${PREFIX}`,
        '--api-key',
        KEYS.full,
        '--destructive',
        '--seed',
        '1',
        '--budget',
        '6s',
      ],
      { cwd: ROOT, env: { ...process.env, ANSWERS_API_KEY: '', ANSWERS_BASE_URL: '' } },
    );
    let stdout = '';
    explore.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    const code = await new Promise((resolve) => explore.on('exit', resolve));
    await during;

    expect(seen.byRun).toMatchObject({
      code: 0,
      stdout: expect.stringMatching(
        /^deleted 0\n[^]*^kept \(runs still going on this machine\) [1-9]/m,
      ),
    });
    expect(seen.short).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/--older-than 5s is shorter than 1h/),
    });
    expect(seen.kept, `${seen.name} was deleted during the run`).toBe(true);
    expect(stdout).toMatch(/^AGREED: /m);
    expect(code, stdout).toBe(0);

    // Ended: what it left (planted here, since it left nothing) and older runs' data are swept.
    const left = await plant(mock, runName(seen.runId!, 't1-main'));
    expect((await sweep('--run', seen.runId!)).stdout).toContain(`deleted 1: ${left}\n`);
    expect((await sweep('--older-than', '1h')).stdout).toContain(`deleted 1: ${old}\n`);
    expect(names(mock).filter((name) => parseRunName(name))).toEqual([]);
  }, 90_000);
});
