/**
 * `answers-contract diff` (issue 49) as a CI owner runs it: a snapshot of a deployment loaded into
 * the mock, the same reads sent to both, never a write; each difference classed spec, profile or
 * description, against our mock (nothing differs), the independent server (a design not ours: its
 * profile decisions, no spec difference), its seeded variants (the clause each breaks) and a
 * release that changes one decision (`--baseline`: only that is new).
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createMock } from '../../src/index.ts';
import { startServer, type RunningServer } from '../../src/node/server.ts';
import { DESIGNS, descriptionText, diffProfileOf, serverOptions } from '../independent/designs.ts';
import { seedData } from '../independent/seed-data.ts';
import { startIndependentServer, type IndependentServer } from '../independent/server.ts';
import type { VariantName } from '../independent/variants.ts';
import { contract } from '../support/contract-cli.ts';
import { KEYS } from '../support/keys.ts';
import { startProxy, type RunningProxy } from '../support/proxy.ts';

const TARGET = new URL('../independent/target.yaml', import.meta.url).pathname;

interface Report {
  verdict: string;
  agreed: number;
  compared: { collections: number; objects: number; searches: number };
  differences: Array<{ id: string; class: string; clause: string; new: boolean; message: string }>;
}

let dir: string;
let independent: IndependentServer | undefined;
let server: RunningServer | undefined;
let proxy: RunningProxy | undefined;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'answers-diff-'));
});
afterEach(async () => {
  await proxy?.close();
  await server?.close();
  await independent?.close();
  proxy = server = independent = undefined;
  await rm(dir, { recursive: true, force: true });
});

/** `snapshot` of a deployment, then `diff` of it with `args` more; the report of `--json`. */
async function snapshotThenDiff(
  deployment: { url: string; full: string; other: string; target?: string },
  args: string[] = [],
  name = 'state',
) {
  const common = [
    ...['--base-url', deployment.url, '--api-key', deployment.full],
    ...['--other-account-key', deployment.other],
    ...(deployment.target ? ['--target', deployment.target] : []),
  ];
  const state = join(dir, `${name}.json`);
  const snapped = await contract(['snapshot', ...common, '--out', state]);
  expect(snapped.code, snapped.stderr).toBe(0);
  return diff(common, state, args, name);
}

async function diff(common: string[], state: string, args: string[], name: string) {
  const json = join(dir, `${name}.diff.json`);
  const run = await contract(['diff', ...common, '--snapshot', state, '--json', json, ...args]);
  const report = JSON.parse(await readFile(json, 'utf8').catch(() => 'null')) as Report | null;
  return { ...run, report: report!, json, common, state };
}

const clauses = (report: Report, kind: string) =>
  [...new Set(report.differences.filter((d) => d.class === kind).map((d) => d.clause))].sort();

/** Two searches before anything is read: an index that lags by searches has caught up. */
async function warmUp(at: IndependentServer): Promise<void> {
  for (let i = 0; i < 2; i++)
    await fetch(`${at.url}/api/answers/query`, {
      method: 'POST',
      headers: { authorization: `Bearer ${at.keys.full}`, 'content-type': 'application/json' },
      body: JSON.stringify({ q: 'warm' }),
    });
}

describe('diff of our mock against its own snapshot', () => {
  it('finds nothing different, and sends it nothing but reads', async () => {
    server = await startServer({ mock: await createMock(), port: 0, quiet: true });
    const sent: string[] = [];
    proxy = await startProxy(server.url, {
      sent: (request) =>
        void sent.push(`${request.method} ${new URL(request.url, 'http://x').pathname}`),
    });
    const { code, stdout, stderr, report } = await snapshotThenDiff({
      url: `${proxy.url}/api/answers/v1`,
      full: KEYS.full,
      other: KEYS.globex,
    });
    expect(code, stderr).toBe(0);
    expect(report.differences).toEqual([]);
    expect(report.agreed).toBeGreaterThan(50);
    expect(report.compared.searches).toBeGreaterThan(0);
    expect(stdout).toMatch(/^Result: PASSED: no new differences at --fail-on spec$/m);
    // Only reads reached it: gets and lists, and the search operation.
    const writes = sent.filter(
      (line) => !line.startsWith('GET ') && line !== 'POST /api/answers/v1/search',
    );
    expect(writes).toEqual([]);
  }, 60_000);
});

describe('diff of a design not ours (the independent server)', () => {
  // A row with a search by GET, 410 for what was deleted and 401 for another account's.
  const row = DESIGNS.find(
    (each) => each.search === 'query' && each.gone === 410 && each.notYours === 401,
  )!;

  it('reports no spec difference, and exactly the decisions the design makes otherwise', async () => {
    const log: Array<{ method: string; path: string }> = [];
    independent = await startIndependentServer({ ...serverOptions(row), log });
    await seedData(independent, { collections: 60, objectsPer: 5 });
    await warmUp(independent);
    const target = join(dir, 'target.yaml');
    await writeFile(target, descriptionText(row));
    log.length = 0;
    const { code, stderr, report } = await snapshotThenDiff({
      url: independent.url,
      full: independent.keys.full,
      other: independent.keys.otherAccount,
      target,
    });
    expect(code, stderr).toBe(0);
    expect(clauses(report, 'spec'), JSON.stringify(report.differences)).toEqual([]);
    expect(clauses(report, 'description')).toEqual([]);
    expect(clauses(report, 'profile')).toEqual(diffProfileOf(row));
    // Never a write: lists and gets, and the search (a GET in this design).
    expect([...new Set(log.map((each) => each.method))]).toEqual(['GET']);
    expect(report.compared.objects).toBeGreaterThanOrEqual(300);
  }, 90_000);
});

/** Deletes what `what` says on the server before the snapshot: the variant shows it after. */
async function deleteOne(at: IndependentServer, what: 'object' | 'collection', ids: string[]) {
  const headers = { authorization: `Bearer ${at.keys.full}` };
  if (what === 'collection') {
    const done = await fetch(`${at.url}/api/answers/collections/${ids[0]}`, {
      method: 'DELETE',
      headers,
    });
    expect(done.status).toBeLessThan(300);
    return;
  }
  const page = (await (
    await fetch(`${at.url}/api/answers/collections/${ids[0]}/objects`, { headers })
  ).json()) as { items: Array<{ objectId: string }> };
  const done = await fetch(`${at.url}/api/answers/objects/${page.items[0]!.objectId}`, {
    method: 'DELETE',
    headers,
  });
  expect(done.status).toBeLessThan(300);
}

describe('diff names the clause a variant breaks, read-only', () => {
  it.each<{ variant: VariantName; clause: string; remove?: 'object' | 'collection' }>([
    { variant: 'list-unordered', clause: 'COLL-LIST-3' },
    { variant: 'count-wrong', clause: 'COLL-2' },
    { variant: 'walk-repeats', clause: 'COLL-LIST-2' },
    { variant: 'walk-skips', clause: 'COLL-LIST-2' },
    { variant: 'other-account-collection-readable', clause: 'ISO-1' },
    { variant: 'list-shows-other-account', clause: 'ISO-1' },
    { variant: 'search-leaks-accounts', clause: 'ISO-1' },
    { variant: 'search-finds-nothing', clause: 'SEARCH-1' },
    { variant: 'deleted-object-still-listed', clause: 'DEL-3', remove: 'object' },
    { variant: 'deleted-still-listed', clause: 'DEL-1', remove: 'collection' },
    // @note The objects of a deleted collection (DEL-2) found by search: a get answers them gone,
    // and nothing read tells a deleted object from one of a deleted collection: DEL-3 is named.
    { variant: 'search-finds-deleted', clause: 'DEL-3', remove: 'collection' },
  ])(
    '$variant: $clause',
    async ({ variant, clause, remove }) => {
      const log: Array<{ method: string; path: string }> = [];
      independent = await startIndependentServer({ variant, log });
      const made = await seedData(independent, { collections: 8, objectsPer: 4 });
      if (remove) await deleteOne(independent, remove, made.mine);
      log.length = 0;
      const junit = join(dir, 'diff.xml');
      const { code, stdout, report } = await snapshotThenDiff(
        {
          url: independent.url,
          full: independent.keys.full,
          other: independent.keys.otherAccount,
          target: TARGET,
        },
        ['--searches', '1000', '--junit', junit],
      );
      expect(clauses(report, 'spec'), stdout).toContain(clause);
      expect(code).toBe(1);
      expect(stdout).toMatch(/^Result: FAILED: \d+ new differences at --fail-on spec$/m);
      expect(await readFile(junit, 'utf8')).toMatch(
        new RegExp(`<testcase classname="diff.spec" name="${clause} [^"]*"><failure`),
      );
      expect(
        log.filter((each) => each.method !== 'GET' && each.path !== '/api/answers/query'),
      ).toEqual([]);
    },
    60_000,
  );
});

describe('diff --baseline', () => {
  it('over an unchanged deployment reports nothing new; after one decision changes, exactly that', async () => {
    independent = await startIndependentServer({});
    await seedData(independent, { collections: 6, objectsPer: 4 });
    // The description names 403 as well as 404 for another account's: either is no surprise.
    const target = join(dir, 'target.yaml');
    await writeFile(
      target,
      (await readFile(TARGET, 'utf8')).replace('notYours: [404]', 'notYours: [404, 403]'),
    );
    const theirs = await collectionsOf(independent.url, independent.keys.otherAccount);
    let release = false;
    proxy = await startProxy(independent.url, {
      // The next release answers 403 for another account's collection, where it answered 404.
      before: (request) =>
        release &&
        request.method === 'GET' &&
        theirs.some((id) => request.url.endsWith(`/collections/${id}`)) &&
        request.headers.authorization === `Bearer ${independent!.keys.full}`
          ? { status: 403, body: JSON.stringify({ error: 'forbidden' }) }
          : undefined,
    });
    const deployment = {
      url: proxy.url,
      full: independent.keys.full,
      other: independent.keys.otherAccount,
      target,
    };
    const first = await snapshotThenDiff(deployment, [], 'night-1');
    expect(first.code, first.stderr).toBe(0);
    expect(first.report.differences.length).toBeGreaterThan(5);

    const same = await diff(first.common, first.state, ['--baseline', first.json], 'night-2');
    expect(same.code, same.stderr).toBe(0);
    expect(same.report.differences.filter((each) => each.new)).toEqual([]);
    expect(same.stdout).toMatch(/\[known\] /);

    release = true;
    const changed = await diff(first.common, first.state, ['--baseline', first.json], 'night-3');
    expect(changed.code, changed.stderr).toBe(0);
    expect(changed.report.differences.filter((each) => each.new).map((each) => each.id)).toEqual([
      "profile GAP-ISOLATION another account's collection, asked for",
    ]);
    const strict = await diff(
      first.common,
      first.state,
      ['--baseline', first.json, '--fail-on', 'profile'],
      'night-4',
    );
    expect(strict.code).toBe(1);
    expect(strict.stdout).toMatch(/^Result: FAILED: 1 new differences at --fail-on profile$/m);
  }, 90_000);
});

async function collectionsOf(base: string, key: string): Promise<string[]> {
  const page = (await (
    await fetch(`${base}/v1/collections?size=50`, { headers: { authorization: `Bearer ${key}` } })
  ).json()) as { items: Array<{ collectionId: string }> };
  return page.items.map((each) => each.collectionId);
}

describe('diff set-up errors: exit 2, one line', () => {
  it.each([
    { name: 'no map beside the snapshot', map: undefined, baseline: undefined, error: /map\.json/ },
    {
      name: 'a baseline that is no diff report',
      map: true,
      baseline: '{"x":1}',
      error: /--baseline .* is not a report of answers-contract diff --json/,
    },
  ])(
    '$name',
    async ({ map, baseline, error }) => {
      server = await startServer({ mock: await createMock(), port: 0, quiet: true });
      const state = join(dir, 'state.json');
      const common = ['--base-url', `${server.url}/api/answers/v1`, '--api-key', KEYS.full];
      expect((await contract(['snapshot', ...common, '--out', state])).code).toBe(0);
      if (!map) await rm(`${state}.map.json`);
      const extra: string[] = [];
      if (baseline) {
        await writeFile(join(dir, 'baseline.json'), baseline);
        extra.push('--baseline', join(dir, 'baseline.json'));
      }
      const run = await contract(['diff', ...common, '--snapshot', state, ...extra]);
      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(error);
      expect(run.stderr.trim().split('\n')).toHaveLength(1);
    },
    60_000,
  );
});
