/**
 * The suite's verdict is honest about what it judged, tried as a new user would against the mock
 * behind a real socket: a run that judged nothing never passes, and --destructive never turns a
 * check that passes read-only into a skip.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createMock, type AnswersMock } from '../../src/index.ts';
import { startServer, type RunningServer } from '../../src/node/server.ts';
import { contract } from '../support/contract-cli.ts';
import { KEYS } from '../support/keys.ts';

let mock: AnswersMock;
let server: RunningServer;
let dir: string;

beforeAll(async () => {
  mock = await createMock();
  server = await startServer({ mock, port: 0, quiet: true });
  dir = await mkdtemp(join(tmpdir(), 'answers-contract-verdicts-'));
});
beforeEach(() => mock.controls.reset());
afterAll(async () => {
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

interface Report {
  verdict: string;
  failed: boolean;
  nothingJudged?: { options: string[]; operations: string[] };
  counts: { pass: number; fail: number; skip: number };
  results: Array<{ id: string; outcome: string; reason?: string }>;
}

/** Runs the suite with `args` against the mock; its exit code, output and JSON report. */
async function suite(args: string[], name: string) {
  const json = join(dir, `${name}.json`);
  const run = await contract([
    '--base-url',
    server.url,
    '--api-key',
    KEYS.full,
    ...args,
    '--json',
    json,
  ]);
  const report = JSON.parse(await readFile(json, 'utf8')) as Report;
  return { ...run, report };
}

const passing = (report: Report) =>
  report.results.filter((r) => r.outcome === 'pass').map((r) => r.id);

describe('a run that judged nothing', () => {
  it('never passes: it names what stopped it, in text, --json and --junit, and exits 2', async () => {
    // A description half written: no list, no way to create objects, no keys for the roles.
    const file = join(dir, 'half.yaml');
    await writeFile(
      file,
      'operations:\n  getCollection: GET /api/answers/collections/{collection_id}\n  createCollection: POST /api/answers/collections\n',
    );
    const junit = join(dir, 'half.xml');
    const { code, stdout, stderr, report } = await suite(
      ['--target', file, '--destructive', '--junit', junit],
      'half',
    );
    expect(report.counts.pass + report.counts.fail).toBe(0);
    expect(code, stdout.slice(-1500)).toBe(2);
    expect(stdout).not.toMatch(/PASSED/);
    expect(stdout).toMatch(
      /0 passed, 0 failed, \d+ skipped in [\d.]+ s: NOTHING JUDGED at level spec/,
    );
    expect(stderr).toMatch(/^answers-contract: nothing judged: /m);
    for (const missing of [
      '--readonly-key',
      '--other-account-key',
      'listCollections',
      'createObject',
    ])
      expect(stderr, missing).toContain(missing);
    expect(report.verdict).toBe('nothing judged');
    expect(report.failed).toBe(true);
    expect(report.nothingJudged?.options).toEqual(
      expect.arrayContaining(['--readonly-key', '--other-account-key', '--inactive-key']),
    );
    expect(report.nothingJudged?.operations).toEqual(
      expect.arrayContaining(['listCollections', 'createObject', 'getObject', 'search']),
    );
    // A CI that reads only failures and errors sees the run in error.
    const xml = await readFile(junit, 'utf8');
    expect(xml).toMatch(/<testsuites [^>]*errors="1"/);
    expect(xml).toMatch(/<error type="nothing judged" message="no check passed and none failed: /);
  }, 90_000);
});

describe('--destructive', () => {
  it("keeps every check that init's unedited draft passes read-only", async () => {
    const file = join(dir, 'draft.yaml');
    const init = await contract([
      'init',
      '--base-url',
      server.url,
      '--api-key',
      KEYS.full,
      '--out',
      file,
    ]);
    expect(init.code, init.stderr).toBe(0);
    const readOnly = await suite(['--target', file], 'read-only');
    expect(readOnly.code, readOnly.stdout.slice(-1500)).toBe(0);
    mock.controls.reset();
    const destructive = await suite(['--target', file, '--destructive'], 'destructive');
    expect(destructive.code, destructive.stdout.slice(-1500)).toBe(0);
    expect(passing(readOnly.report).length).toBeGreaterThan(0);
    // The draft offers no createCollection: what would have judged the run's own data judges
    // existing data, as the read-only run did, and says so.
    expect(passing(destructive.report)).toEqual(expect.arrayContaining(passing(readOnly.report)));
    expect(destructive.stdout).toMatch(
      /checks judged read-only, on existing data, as --destructive cannot create test data: .* offers no createCollection/,
    );
  }, 90_000);
});
