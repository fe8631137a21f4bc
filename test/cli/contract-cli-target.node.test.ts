/**
 * answers-contract as a CI owner whose implementation is not ours meets it: a target file, levels,
 * set-up errors told apart from contract failures, boolean environment variables, `init` and
 * `sweep`. The target is our mock behind a real socket, sometimes behind a small proxy that breaks
 * one thing. `init` and `sweep` are in contract-cli-commands.node.test.ts.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { SPEC_CHECKS } from '../../src/contract/checks/index.ts';
import { parseSuiteOptions } from '../../src/contract/cli.ts';
import { UsageError } from '../../src/contract/cli-options.ts';
import { loadTargetFile, TargetFileError } from '../../src/contract/target-api/load.ts';
import { createMock, type AnswersMock } from '../../src/index.ts';
import { startServer, type RunningServer } from '../../src/node/server.ts';
import { contract } from '../support/contract-cli.ts';
import { KEYS } from '../support/keys.ts';
import { startProxy, type RunningProxy } from '../support/proxy.ts';

/** An argv as the bin gets it: node, the script, then the arguments. */
const argv = (args: string[]) => ['node', 'answers-contract', ...args];

let mock: AnswersMock;
let server: RunningServer;
let dir: string;
/** Forwards to the mock, but answers 401 to every request that carries `Authorization`. */
let bearerBroken: RunningProxy;

beforeAll(async () => {
  mock = await createMock();
  server = await startServer({ mock, port: 0, quiet: true });
  dir = await mkdtemp(join(tmpdir(), 'answers-contract-target-'));
  bearerBroken = await startProxy(server.url, {
    before: (request) =>
      request.headers.authorization === undefined
        ? undefined
        : { status: 401, body: '{"error":"unauthorized"}' },
  });
});
beforeEach(() => mock.controls.reset());
afterAll(async () => {
  await bearerBroken.close();
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

const api = () => `${server.url}/api/answers/v1`;

describe('answers-contract --target', () => {
  it('exits 2 with one line and no stack for the target file "operations:\\n  listCollections: FETCH /things\\n"', async () => {
    const file = join(dir, 'bad.yaml');
    await writeFile(file, 'operations:\n  listCollections: FETCH /things\n');
    const result = await contract(['--base-url', api(), '--api-key', KEYS.full, '--target', file]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('bad.yaml');
    expect(result.stderr).toMatch(/\/operations\/listCollections/);
    expect(result.stderr).not.toMatch(/\n\s+at /);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stdout).not.toMatch(/FAIL/);
  }, 90_000);

  // @note Loaded in-process, as the bin loads --target before any check: each is a TargetFileError
  // of one line naming the file, which the bin prints as one line with exit 2 (the run above).
  it.each([
    ['unknownKey: 1\n', /unknown key "unknownKey"/],
    ['operations:\n  getCollection: GET /collections/{id}\n', /\{collection_id\}/],
    ['list: [unclosed\n', /bad\.yaml/],
  ])('exits 2 with one line and no stack for the target file %j', async (text, message) => {
    const file = join(dir, 'bad.yaml');
    await writeFile(file, text);
    const error = await loadTargetFile(file).then(
      () => expect.fail('loaded a bad target file'),
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(TargetFileError);
    const { message: said } = error as Error;
    expect(said).toContain('bad.yaml');
    expect(said).toMatch(message);
    expect(said).not.toContain('\n');
  });

  it('reads the file named by ANSWERS_CONTRACT_TARGET', async () => {
    const file = join(dir, 'missing-dir', 'nowhere.yaml');
    const result = await contract(['--base-url', api(), '--api-key', KEYS.full], {
      ANSWERS_CONTRACT_TARGET: file,
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('nowhere.yaml');
  }, 90_000);

  it('passes the mock described by the shipped contracts/answers-openapi.yaml', async () => {
    const json = join(dir, 'shipped.json');
    const result = await contract([
      '--base-url',
      api(),
      '--api-key',
      KEYS.full,
      '--target',
      'contracts/answers-openapi.yaml',
      '--json',
      json,
    ]);
    expect(result.code, result.stdout.slice(-1500)).toBe(0);
    const report = JSON.parse(await readFile(json, 'utf8'));
    expect(report.description).toContain('answers-openapi.yaml');
    expect(report.levels.spec.fail).toBe(0);
    expect(report.levels.spec.pass).toBeGreaterThan(0);
  }, 90_000);
});

describe('answers-contract levels and skips', () => {
  it('--level spec decides by the spec checks alone and counts them apart', async () => {
    const json = join(dir, 'level.json');
    const result = await contract([
      '--base-url',
      api(),
      '--api-key',
      KEYS.full,
      '--level',
      'spec',
      '--json',
      json,
    ]);
    expect(result.code).toBe(0);
    const report = JSON.parse(await readFile(json, 'utf8'));
    expect(report.level).toBe('spec');
    const spec = report.levels.spec;
    expect(spec.pass + spec.fail + spec.skip).toBe(SPEC_CHECKS.length);
  }, 90_000);

  it('--fail-on-skip turns a skipped spec check into exit 1', async () => {
    const result = await contract(['--base-url', api(), '--api-key', KEYS.full, '--fail-on-skip']);
    expect(result.stdout).toMatch(/SKIP {2}auth\.inactive-key/);
    expect(result.code).toBe(1);
  }, 90_000);

  // @note Parsed in-process: the spawned runs below prove the CLI prints such an error as one line
  // with exit 2.
  it.each([
    [['--concurrency', '0'], {}, /--concurrency.*whole number from 1 to 32/],
    [['--settle', 'soon'], {}, /--settle.*whole number from 0 to 60000/],
    [[], { ANSWERS_CONTRACT_CONCURRENCY: 'many' }, /ANSWERS_CONTRACT_CONCURRENCY=many/],
    [
      [],
      { ANSWERS_CONTRACT_DESTRUCTIVE: 'maybe' },
      /ANSWERS_CONTRACT_DESTRUCTIVE=maybe is not a boolean/,
    ],
  ])('refuses %j %j with a usage error', (args, env, message) => {
    for (const [name, value] of Object.entries(env)) vi.stubEnv(name, value);
    try {
      expect(() =>
        parseSuiteOptions(argv(['--base-url', api(), '--api-key', KEYS.full, ...args])),
      ).toThrow(
        expect.objectContaining({
          constructor: UsageError,
          message: expect.stringMatching(message),
        }),
      );
    } finally {
      vi.unstubAllEnvs();
    }
  });

  it('refuses an unknown level with exit 2', async () => {
    const result = await contract(['--base-url', api(), '--api-key', KEYS.full, '--level', 'x']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/spec or profile/);
  }, 90_000);
});

describe('answers-contract set-up errors', () => {
  it('reports a Bearer form refused alone as a failed check, not as a refused key', async () => {
    const result = await contract([
      '--base-url',
      `${bearerBroken.url}/api/answers/v1`,
      '--api-key',
      KEYS.full,
    ]);
    expect(result.stderr).not.toMatch(/refuses --api-key/);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/FAIL {2}auth\.bearer-accepted/);
    expect(result.stdout).toMatch(/PASS {2}auth\.api-key-header-accepted/);
  }, 90_000);

  it('exits 2 when a destructive run is given a key that cannot write', async () => {
    const result = await contract([
      '--base-url',
      api(),
      '--api-key',
      KEYS.readonly,
      '--destructive',
    ]);
    expect(result.code).toBe(2);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toMatch(/--destructive/);
    expect(result.stdout).not.toMatch(/FAIL/);
  }, 90_000);

  it.each([
    ['true', true],
    ['YES', true],
    ['1', true],
    ['0', false],
    ['', false],
  ])('ANSWERS_CONTRACT_DESTRUCTIVE=%j is destructive: %s', (value, destructive) => {
    vi.stubEnv('ANSWERS_CONTRACT_DESTRUCTIVE', value);
    try {
      expect(
        parseSuiteOptions(argv(['--base-url', api(), '--api-key', KEYS.full])).destructive,
      ).toBe(destructive);
    } finally {
      vi.unstubAllEnvs();
    }
  });

  it('a run with ANSWERS_CONTRACT_DESTRUCTIVE=1 writes, and reports it did', async () => {
    const json = join(dir, 'destructive.json');
    const result = await contract(['--base-url', api(), '--api-key', KEYS.full, '--json', json], {
      ANSWERS_CONTRACT_DESTRUCTIVE: '1',
    });
    expect(result.code).toBe(0);
    expect(JSON.parse(await readFile(json, 'utf8')).destructive).toBe(true);
  }, 90_000);

  it('refuses ANSWERS_CONTRACT_DESTRUCTIVE that is not a boolean with exit 2 and one line', async () => {
    const result = await contract(['--base-url', api(), '--api-key', KEYS.full], {
      ANSWERS_CONTRACT_DESTRUCTIVE: 'maybe',
    });
    expect(result.code).toBe(2);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toMatch(/ANSWERS_CONTRACT_DESTRUCTIVE=maybe is not a boolean/);
  }, 90_000);
});
