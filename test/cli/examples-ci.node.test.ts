import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { parse } from 'yaml';
import { createMock } from '../../src/index.ts';
import { startServer, type RunningServer } from '../../src/node/server.ts';
import { contractBin } from '../support/bins.ts';

const workflow = parse(
  await readFile(new URL('../../examples/ci/contract.yml', import.meta.url), 'utf8'),
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
  // Run the step's own command line, with the package's bin replaced by this repository's CLI
  // (bundled from the sources, by absolute path: the step runs in a scratch folder).
  const args = step.run!.replace(/^npx --no -- answers-contract\s*/, '').split(/\s+/);
  const result = await new Promise<{ code: number; stdout: string }>((resolve) => {
    execFile(
      process.execPath,
      contractBin(...args),
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

/** The README's workflow snippet, parsed. */
const README = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
const readmeWorkflow = parse(
  /```yaml\n(# \.github\/workflows\/contract\.yml\n[\s\S]*?)```/.exec(README)![1]!,
);

it.each([
  ['examples/ci/contract.yml', workflow],
  ['the README', readmeWorkflow],
])('the workflow of %s runs only for a successful deployment', (_, file) => {
  const on = typeof file.on === 'string' ? [file.on] : Object.keys(file.on);
  expect(on).toEqual(['deployment_status']);
  expect(file.jobs.contract.if).toBe("github.event.deployment_status.state == 'success'");
  expect(file.permissions).toEqual({ contents: 'read' });
});

/**
 * Every file a user copies commands from: the README, and the examples' READMEs, workflows and
 * package manifests (not their node_modules).
 */
function documents(): Array<[string, string]> {
  const found: Array<[string, string]> = [['README.md', README]];
  const walk = (dir: string) => {
    for (const entry of readdirSync(new URL(`../../${dir}`, import.meta.url), {
      withFileTypes: true,
    })) {
      const path = `${dir}/${entry.name}`;
      if (entry.isDirectory() && entry.name !== 'node_modules') walk(path);
      else if (/\.(md|ya?ml)$/.test(entry.name)) {
        found.push([path, readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8')]);
      }
    }
  };
  walk('examples');
  return found;
}

/** Whether an install command names a source the user controls. */
function controlledSource(command: string): boolean {
  return (
    /\S+\.tgz\b/.test(command) || // a packed tarball
    /git\+https:\/\/\S+#[0-9a-f<]/.test(command) || // a git URL pinned to a commit
    /@[\w<>-]+\/answers-mock-kit@\d/.test(command) // a scoped name, an exact version
  );
}

it('installs the kit only from a tarball, a pinned git URL or a scoped name marked "when published"', () => {
  const kitInstalls: string[] = [];
  for (const [path, text] of documents()) {
    const lines = text.split('\n');
    lines.forEach((line, i) => {
      const command = /\bnpm (?:install|i|add)\b[^`'"\n]*(?:answers-mock-kit|\.tgz)[^`\n]*/.exec(
        line,
      )?.[0];
      if (!command) return;
      kitInstalls.push(`${path}:${i + 1}`);
      expect(controlledSource(command), `${path}:${i + 1}: ${command}`).toBe(true);
      if (/@[\w<>-]+\/answers-mock-kit/.test(command)) {
        expect(lines.slice(Math.max(0, i - 1), i + 1).join(' '), `${path}:${i + 1}`).toMatch(
          /when published/i,
        );
      }
    });
    // The unregistered bare name never follows an install verb, on one line or across two.
    expect(text, path).not.toMatch(
      /\bnpm (?:install|i|add)\b(?:\s+--?[\w-]+)*\s+answers-mock-kit\b(?!-)/,
    );
  }
  expect(kitInstalls.length).toBeGreaterThanOrEqual(5);
});

it("runs the kit's bins with npx --no, which never downloads a package of their name", () => {
  for (const [path, text] of documents()) {
    expect(text.match(/\bnpx (?!--no )\S*answers-(?:mock|contract)\b.*/g) ?? [], path).toEqual([]);
  }
});
