import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { parse } from 'yaml';
import { createMock } from '../src/index.ts';
import { startServer, type RunningServer } from '../src/node/server.ts';

const workflow = parse(
  await readFile(new URL('../examples/ci/contract.yml', import.meta.url), 'utf8'),
);
const steps: Array<{ name?: string; run?: string; env?: Record<string, string> }> =
  workflow.jobs.contract.steps;
const step = steps.find((s) => s.run?.includes('answers-contract'))!;

let server: RunningServer;
let dir: string;
beforeAll(async () => {
  server = await startServer({ mock: await createMock(), port: 0, quiet: true });
  dir = await mkdtemp(join(tmpdir(), 'answers-ci-example-'));
});
afterAll(async () => {
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

/** What the repository's variables and secrets would hold, for a deployment that is the mock. */
const SETTINGS: Record<string, string> = {
  'vars.ANSWERS_BASE_URL': '',
  'secrets.ANSWERS_API_KEY': 'answers_test_full_acme',
  'secrets.ANSWERS_READONLY_KEY': 'answers_test_readonly_acme',
  'secrets.ANSWERS_OTHER_ACCOUNT_KEY': 'answers_test_full_globex',
  'secrets.ANSWERS_INACTIVE_KEY': 'answers_test_inactive_acme',
};

it('the example workflow runs answers-contract on a deployed URL with keys from secrets and publishes the JUnit report', async () => {
  // It starts nothing: no mock server, only the contract runner against the deployment.
  expect(steps.filter((s) => /answers-mock(?!-kit)/.test(s.run ?? ''))).toEqual([]);
  const upload = steps.find((s) =>
    (s as { uses?: string }).uses?.startsWith('actions/upload-artifact'),
  );
  expect((upload as { with: { path: string } }).with.path).toContain('contract-junit.xml');

  SETTINGS['vars.ANSWERS_BASE_URL'] = `${server.url}/api/answers/v1`;
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(step.env!)) {
    const reference = /^\$\{\{ (.+) \}\}$/.exec(value)?.[1];
    expect(reference && reference in SETTINGS, `${name} comes from a documented setting`).toBe(
      true,
    );
    env[name] = SETTINGS[reference!]!;
  }
  // Run the step's own command line, with the package's bin replaced by this repository's CLI.
  const args = step.run!.replace(/^npx answers-contract\s*/, '').split(/\s+/);
  const cli = new URL('../src/bin/answers-contract.ts', import.meta.url).pathname;
  // @note By absolute URL: the step runs in a scratch folder, where `--import tsx` would not resolve.
  const tsx = new URL('../node_modules/tsx/dist/loader.mjs', import.meta.url).href;
  const result = await new Promise<{ code: number; stdout: string }>((resolve) => {
    execFile(
      process.execPath,
      ['--import', tsx, cli, ...args],
      { cwd: dir, env: { ...process.env, ...env }, timeout: 90_000 },
      (error, stdout) =>
        resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout }),
    );
  });
  expect(result.code, result.stdout.slice(-1500)).toBe(0);
  const junit = await readFile(join(dir, 'contract-junit.xml'), 'utf8');
  expect(junit).toContain('failures="0"');
  expect(JSON.parse(await readFile(join(dir, 'contract-report.json'), 'utf8')).counts.fail).toBe(0);
}, 90_000);
