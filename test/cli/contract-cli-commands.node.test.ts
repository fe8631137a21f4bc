/**
 * `answers-contract init` and `answers-contract sweep` against the mock behind a real socket.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createMock, type AnswersMock } from '../../src/index.ts';
import { startServer, type RunningServer } from '../../src/node/server.ts';
import { parseTargetDescription } from '../../src/contract/target-api/load.ts';
import { OPERATION_NAMES } from '../../src/contract/target-api/description.ts';
import { contract } from '../support/contract-cli.ts';
import { KEYS } from '../support/keys.ts';

let mock: AnswersMock;
let server: RunningServer;
let dir: string;

beforeAll(async () => {
  mock = await createMock();
  server = await startServer({ mock, port: 0, quiet: true });
  dir = await mkdtemp(join(tmpdir(), 'answers-contract-commands-'));
});
beforeEach(() => mock.controls.reset());
afterAll(async () => {
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

const api = () => `${server.url}/api/answers/v1`;

describe('answers-contract init', () => {
  it('drafts a description that loads and runs against the two stated paths', async () => {
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
    const draft = await readFile(file, 'utf8');
    expect(draft).toContain('listCollections: GET /v1/collections');
    expect(draft).toMatch(/^ {2}items: '\/data'/m);
    expect(draft).toMatch(/^ {2}id: '\/id'/m);
    expect(draft).toMatch(/^ {2}createdAt: '\/created_at'/m);
    expect(draft).toMatch(/^ {2}in: ''/m);
    // Every operation a check can use is named, with the checks that need it or use it.
    for (const name of OPERATION_NAMES)
      expect(draft, name).toMatch(new RegExp(`^ {2}(# )?${name}: `, 'm'));
    expect(draft).toMatch(
      /^ {2}# listObjects: GET \/api\/answers\/collections\/\{collection_id\}\/objects {3}# .*used where offered by .*list\.summaries/m,
    );
    // Uncommented, the draft offers them all (our paths under /api/answers).
    const whole = draft.replace(/^ {2}# (\w+: [A-Z]+ \/)/gm, '  $1');
    const loaded = parseTargetDescription(whole, 'the draft, uncommented');
    expect(Object.keys(loaded.operations).sort()).toEqual([...OPERATION_NAMES].sort());
    const json = join(dir, 'draft.json');
    const run = await contract([
      '--base-url',
      server.url,
      '--api-key',
      KEYS.full,
      '--target',
      file,
      '--json',
      json,
    ]);
    expect(run.code, run.stdout.slice(-1500)).toBe(0);
    const report = JSON.parse(await readFile(json, 'utf8'));
    const passed = report.results
      .filter((r: { outcome: string }) => r.outcome === 'pass')
      .map((r: { id: string }) => r.id);
    expect(passed).toEqual(expect.arrayContaining(['list.summaries', 'collection.get']));
  }, 90_000);
});

describe('answers-contract sweep', () => {
  const name = (runStartedMs: number, what: string) =>
    `answers-contract-${runStartedMs.toString(36)}abcd-t1-${what}`;

  async function create(collectionName: string, metadata: object = {}) {
    const response = await fetch(`${api()}/collections`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEYS.full}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: collectionName, metadata }),
    });
    expect(response.status).toBe(201);
    return ((await response.json()) as { id: string }).id;
  }
  const exists = async (id: string) =>
    (
      await fetch(`${api()}/collections/${id}`, {
        headers: { authorization: `Bearer ${KEYS.full}` },
      })
    ).status === 200;

  it("deletes exactly the run's leftover among a user's look-alikes, and explains a dry run", async () => {
    const threeHoursAgo = Date.now() - 3 * 3_600_000;
    const old = await create(name(threeHoursAgo, 'old'));
    const young = await create(name(Date.now() - 60_000, 'young'));
    // What an unanchored match over the whole summary deleted (issue 34), and two names of the
    // kit's shape whose run time no run can have had.
    const users = [
      await create('answers-contract-review-notes'),
      await create('Team notes on answers-contract-tests-2024'),
      await create('Imported', { source: 'answers-contract-legacy-import' }),
      await create('Quoting a run', { example: name(threeHoursAgo, 'main') }),
      await create(name(Date.UTC(2020, 0, 1), 'main')),
      await create(name(Date.now() + 30 * 86_400_000, 'main')),
    ];
    const dry = await contract([
      'sweep',
      '--base-url',
      api(),
      '--api-key',
      KEYS.full,
      '--older-than',
      '1h',
      '--dry-run',
    ]);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toContain('would delete 1\n');
    expect(dry.stdout).toContain(
      `  ${old}: named "${name(threeHoursAgo, 'old')}", the kit's shape for run ${threeHoursAgo.toString(36)}abcd, which started ${new Date(threeHoursAgo).toISOString()} (3.0 h ago)`,
    );
    expect(await exists(old)).toBe(true);

    const swept = await contract([
      'sweep',
      '--base-url',
      api(),
      '--api-key',
      KEYS.full,
      '--older-than',
      '1h',
    ]);
    expect(swept.code, swept.stderr).toBe(0);
    expect(swept.stdout).toContain(`deleted 1: ${old}\n`);
    expect(await exists(old)).toBe(false);
    expect(await exists(young)).toBe(true);
    for (const id of users) expect(await exists(id), id).toBe(true);
  }, 90_000);

  it('--run deletes that run whatever its age, and nothing of another run', async () => {
    const started = Date.now() - 5_000;
    const ours = await create(name(started, 'main'));
    const theirs = await create(`answers-contract-${started.toString(36)}wxyz-t1-main`);
    const swept = await contract([
      'sweep',
      '--base-url',
      api(),
      '--api-key',
      KEYS.full,
      '--run',
      `${started.toString(36)}abcd`,
    ]);
    expect(swept.code, swept.stderr).toBe(0);
    expect(await exists(ours)).toBe(false);
    expect(await exists(theirs)).toBe(true);
  }, 90_000);

  it("sweeps the other account's leftovers too, with the key of ANSWERS_OTHER_ACCOUNT_KEY", async () => {
    const started = Date.now() - 3 * 3_600_000;
    const response = await fetch(`${api()}/collections`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEYS.globex}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: name(started, 'other') }),
    });
    const theirs = ((await response.json()) as { id: string }).id;
    const swept = await contract(
      ['sweep', '--base-url', api(), '--api-key', KEYS.full, '--older-than', '1h'],
      { ANSWERS_OTHER_ACCOUNT_KEY: KEYS.globex },
    );
    expect(swept.code, swept.stderr).toBe(0);
    expect(swept.stdout).toContain(`deleted 1: ${theirs}\n`);
  }, 90_000);

  it('refuses a duration it cannot read with exit 2', async () => {
    const result = await contract([
      'sweep',
      '--base-url',
      api(),
      '--api-key',
      KEYS.full,
      '--older-than',
      'soon',
    ]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/--older-than/);
  }, 90_000);
});
