import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { CHECKS } from '../../src/contract/checks/index.ts';
import { parseSuiteOptions } from '../../src/contract/cli.ts';
import { UsageError } from '../../src/contract/cli-options.ts';
import { createMock } from '../../src/index.ts';
import { startServer, type RunningServer } from '../../src/node/server.ts';
import { contractBin } from '../support/bins.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

function contract(args: string[], env: Record<string, string> = {}) {
  return new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile(
      process.execPath,
      contractBin(...args),
      { cwd: ROOT, env: { ...process.env, ...env }, timeout: 90_000 },
      (error, stdout, stderr) => {
        resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr });
      },
    );
  });
}

let server: RunningServer;
let dir: string;
beforeAll(async () => {
  server = await startServer({ mock: await createMock(), port: 0, quiet: true });
  dir = await mkdtemp(join(tmpdir(), 'answers-contract-'));
});
afterAll(async () => {
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

describe('answers-contract', () => {
  it('passes against a running mock with every key, prints the matrix and exits 0', async () => {
    const base = `${server.url}/api/answers/v1`;
    const result = await contract([
      '--base-url',
      base,
      '--api-key',
      'answers_test_full_acme',
      '--readonly-key',
      'answers_test_readonly_acme',
      '--other-account-key',
      'answers_test_full_globex',
      '--inactive-key',
      'answers_test_inactive_acme',
      '--destructive',
      '--level',
      'profile',
      '--junit',
      join(dir, 'junit.xml'),
      '--json',
      join(dir, 'report.json'),
    ]);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Conformance matrix');
    expect(result.stdout).toContain(`${CHECKS.length} passed, 0 failed, 0 skipped`);
    const junit = await readFile(join(dir, 'junit.xml'), 'utf8');
    expect(junit.match(/<testcase /g)).toHaveLength(CHECKS.length);
    expect(junit).toContain('failures="0"');
    const json = JSON.parse(await readFile(join(dir, 'report.json'), 'utf8'));
    expect(json.counts).toEqual({ pass: CHECKS.length, fail: 0, skip: 0 });
  }, 90_000);

  it('takes its options from the environment', async () => {
    const result = await contract([], {
      ANSWERS_BASE_URL: `${server.url}/api/answers/v1`,
      ANSWERS_API_KEY: 'answers_test_full_acme',
    });
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/SKIP {2}auth\.inactive-key/);
    expect(result.stdout).toMatch(/needs --inactive-key/);
  }, 90_000);

  it('exits 1 when a check fails', async () => {
    const result = await contract(['--mock', '--fault', 'soft-delete']);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/FAIL {2}delete\.collection/);
  }, 90_000);

  // @note Parsed in-process: each is a usage error of one line, which the bin prints as one line
  // with exit 2 (the spawned run below, and contract-cli-target's, prove that wiring).
  it.each([
    [['--api-key', 'k'], /--base-url/],
    [['--base-url', 'http://127.0.0.1:4010/api/answers/v1'], /--api-key/],
    [['--base-url', 'ftp://x', '--api-key', 'k'], /http\(s\) URL/],
  ])('exits 2 with one line for %j', (args, message) => {
    vi.stubEnv('ANSWERS_BASE_URL', '');
    vi.stubEnv('ANSWERS_API_KEY', '');
    try {
      expect(() => parseSuiteOptions(['node', 'answers-contract', ...args])).toThrow(
        expect.objectContaining({
          constructor: UsageError,
          message: expect.stringMatching(new RegExp(`^[^\\n]*${message.source}[^\\n]*$`)),
        }),
      );
    } finally {
      vi.unstubAllEnvs();
    }
  });

  it('exits 2 with one line for ["--base-url","http://127.0.0.1:9/api/answers/v1","--api-key","k"]', async () => {
    const result = await contract(
      ['--base-url', 'http://127.0.0.1:9/api/answers/v1', '--api-key', 'k'],
      { ANSWERS_BASE_URL: '', ANSWERS_API_KEY: '' },
    );
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/cannot reach/);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
  }, 90_000);

  it('exits 2 when the target refuses the key', async () => {
    const result = await contract([
      '--base-url',
      `${server.url}/api/answers/v1`,
      '--api-key',
      'answers_test_inactive_acme',
    ]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/refuses --api-key/);
  }, 90_000);

  it('passes with the traffic going through Prism (--via-prism)', async () => {
    const result = await contract(['--mock', '--via-prism', '--level', 'profile']);
    expect(result.code, result.stdout.slice(-2000) + result.stderr.slice(-2000)).toBe(0);
    expect(result.stdout).toContain(`${CHECKS.length} passed, 0 failed`);
  }, 90_000);
});
