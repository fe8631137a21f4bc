/**
 * `answers-contract snapshot` (issue 49) as a developer runs it against a deployment: the
 * independent server (a design not ours: its own paths, fields, paging and times) and our mock,
 * each read with list and get requests only, written as a state the mock loads with its own ids,
 * the deployment's times and a map back to the deployment's ids; bounded; keys never copied.
 */
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createMock, type Snapshot } from '../../src/index.ts';
import { DEV_KEYS_BY_ROLE } from '../../src/seed/dev-keys.ts';
import { startServer, type RunningServer } from '../../src/node/server.ts';
import { startIndependentServer, type IndependentServer } from '../independent/server.ts';
import { contract } from '../support/contract-cli.ts';
import { KEYS } from '../support/keys.ts';
import { startProxy, type RunningProxy } from '../support/proxy.ts';

const TARGET = new URL('../independent/target.yaml', import.meta.url).pathname;
let dir: string;
let independent: IndependentServer | undefined;
let server: RunningServer | undefined;
let proxy: RunningProxy | undefined;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'answers-snapshot-'));
});
afterEach(async () => {
  await proxy?.close();
  await server?.close();
  await independent?.close();
  proxy = server = independent = undefined;
  await rm(dir, { recursive: true, force: true });
});

/** What the independent server holds, as its own API answers it to `key`. */
async function heldBy(base: string, key: string) {
  const headers = { authorization: `Bearer ${key}` };
  const collections: Array<{
    collectionId: string;
    title: string;
    meta: unknown;
    createdMs: number;
  }> = [];
  let next: string | undefined = `${base}/v1/collections?size=50`;
  while (next) {
    const page = (await (await fetch(next, { headers })).json()) as {
      items: typeof collections;
      links?: { next?: string };
    };
    collections.push(...page.items);
    next = page.links?.next ? new URL(page.links.next, base).href : undefined;
  }
  return collections;
}

/** Adds `count` collections with non-ASCII names, nested metadata and 3 objects each. */
async function addData(base: string, key: string, count: number): Promise<void> {
  const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
  for (let i = 0; i < count; i++) {
    const made = await fetch(`${base}/api/answers/collections`, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        title: `Рецепты ${i} — 東京 ${i}`,
        meta: { owner: { team: `équipe ${i}`, tags: ['a', i] }, active: i % 2 === 0 },
      }),
    });
    expect(made.status).toBe(201);
    const { result } = (await made.json()) as { result: { collectionId: string } };
    for (let j = 0; j < 3; j++)
      expect(
        (
          await fetch(`${base}/api/answers/collections/${result.collectionId}/objects`, {
            method: 'POST',
            headers,
            body: JSON.stringify({ body: { text: `Ωμέγα ${i}.${j} naïve café`, n: j } }),
          })
        ).status,
      ).toBe(201);
  }
}

const loaded = async (file: string): Promise<Snapshot> =>
  JSON.parse(await readFile(file, 'utf8')) as Snapshot;

describe('snapshot of a deployment that is not ours (the independent server)', () => {
  it('copies both accounts, read only, into the mock’s two dev accounts, with its times and a map back', async () => {
    const log: Array<{ method: string; path: string }> = [];
    independent = await startIndependentServer({ log });
    await addData(independent.url, independent.keys.full, 12);
    const before = await heldBy(independent.url, independent.keys.full);
    const beforeOther = await heldBy(independent.url, independent.keys.otherAccount);
    log.length = 0;
    const out = join(dir, 'staging.json');
    const { code, stdout, stderr } = await contract([
      'snapshot',
      '--base-url',
      independent.url,
      '--api-key',
      independent.keys.full,
      '--other-account-key',
      independent.keys.otherAccount,
      '--target',
      TARGET,
      '--out',
      out,
    ]);
    expect(code, stderr).toBe(0);
    // Never a write: only the list and get requests of the crawl reached the deployment.
    expect(log.length).toBeGreaterThan(0);
    expect([...new Set(log.map((each) => each.method))]).toEqual(['GET']);

    const state = await loaded(out);
    // Keys are never copied: the state's keys are the mock's own dev keys.
    expect(JSON.stringify(state)).not.toContain(independent.keys.full);
    expect(JSON.stringify(state)).not.toContain(independent.keys.otherAccount);
    const accountOf = (key: string) => state.api_keys.find((k) => k.key === key)!.account_id;
    const mine = state.collections.filter((c) => c.account_id === accountOf(DEV_KEYS_BY_ROLE.full));
    const theirs = state.collections.filter(
      (c) => c.account_id === accountOf(DEV_KEYS_BY_ROLE.otherAccount),
    );
    expect(mine.map((c) => c.name).sort()).toEqual(before.map((c) => c.title).sort());
    expect(theirs.map((c) => c.name).sort()).toEqual(beforeOther.map((c) => c.title).sort());

    const map = JSON.parse(await readFile(`${out}.map.json`, 'utf8')) as {
      collections: Record<string, string>;
      objects: Record<string, string>;
    };
    for (const collection of mine) {
      const source = before.find((c) => c.collectionId === map.collections[collection.id])!;
      expect(collection.name).toBe(source.title);
      expect(collection.metadata).toEqual(source.meta);
      expect(collection.created_at).toBe(new Date(source.createdMs).toISOString());
      expect(collection.id).toMatch(/^col_[0-9a-z]{20}$/);
    }
    expect(Object.keys(map.objects)).toHaveLength(state.objects.length);
    const cafe = state.objects.find((o) => JSON.stringify(o.content).includes('naïve café'))!;
    expect(cafe.content).toMatchObject({ text: expect.stringMatching(/^Ωμέγα /) });
    expect(stdout).toMatch(/^Snapshot of .*: \d+ collections, \d+ objects/m);

    // The mock loads it as it is, and serves it with its dev keys.
    const mock = await createMock({ initialState: state });
    server = await startServer({ mock, port: 0, quiet: true });
    const listed = await fetch(`${server.url}/api/answers/v1/collections?limit=100`, {
      headers: { authorization: `Bearer ${DEV_KEYS_BY_ROLE.full}` },
    });
    expect(((await listed.json()) as { data: unknown[] }).data).toHaveLength(mine.length);
  }, 60_000);

  it('stays within --max-collections and --max-objects, and says what it left out', async () => {
    independent = await startIndependentServer({});
    await addData(independent.url, independent.keys.full, 6);
    const out = join(dir, 'small.json');
    const { code, stdout, stderr } = await contract([
      'snapshot',
      ...['--base-url', independent.url, '--api-key', independent.keys.full],
      ...['--target', TARGET, '--out', out],
      ...['--max-collections', '3', '--max-objects', '4'],
    ]);
    expect(code, stderr).toBe(0);
    const state = await loaded(out);
    expect(state.collections.length).toBe(3);
    expect(state.objects.length).toBeLessThanOrEqual(4);
    expect(stdout).toMatch(/^Left out: \d+ collections past --max-collections 3$/m);
  }, 60_000);
});

describe('snapshot of our mock', () => {
  it('round-trips: the mock loads what it wrote, the same data under its own keys', async () => {
    const source = await createMock();
    server = await startServer({ mock: source, port: 0, quiet: true });
    const methods: string[] = [];
    proxy = await startProxy(server.url, { sent: (request) => void methods.push(request.method) });
    const out = join(dir, 'mock.json');
    const { code, stderr } = await contract([
      'snapshot',
      ...['--base-url', `${proxy.url}/api/answers/v1`, '--api-key', KEYS.full],
      ...['--other-account-key', KEYS.globex, '--out', out],
    ]);
    expect(code, stderr).toBe(0);
    expect([...new Set(methods)]).toEqual(['GET']);
    const state = await loaded(out);
    const exported = source.controls.export();
    const shape = (s: Snapshot) =>
      s.collections
        .map((c) => ({
          name: c.name,
          metadata: c.metadata,
          created_at: c.created_at,
          objects: s.objects
            .filter((o) => o.collection_id === c.id)
            .map((o) => JSON.stringify([o.content, o.created_at, o.updated_at, o.version]))
            .sort(),
        }))
        .sort((a, b) => a.name.localeCompare(b.name));
    // The dev accounts of the default seed hold the same data under their own keys.
    const owned = (s: Snapshot, keys: string[]) => {
      const accounts = new Set(
        keys.map((key) => s.api_keys.find((k) => k.key === key)!.account_id),
      );
      return shape({ ...s, collections: s.collections.filter((c) => accounts.has(c.account_id)) });
    };
    expect(owned(state, [DEV_KEYS_BY_ROLE.full])).toEqual(owned(exported, [KEYS.full]));
    expect(owned(state, [DEV_KEYS_BY_ROLE.otherAccount])).toEqual(owned(exported, [KEYS.globex]));
  }, 60_000);

  it('a Ctrl-C writes nothing: no state, no map, no partial file', async () => {
    const source = await createMock();
    server = await startServer({ mock: source, port: 0, quiet: true });
    let release: () => void = () => undefined;
    let reached: () => void = () => undefined;
    const holding = new Promise<void>((resolve) => (reached = resolve));
    let held = 0;
    proxy = await startProxy(server.url, {
      hold: (request) => {
        if (!/\/objects/.test(request.url) || held++ > 0) return undefined;
        reached();
        return new Promise<void>((resolve) => (release = resolve));
      },
    });
    const out = join(dir, 'cut.json');
    const { spawn } = await import('node:child_process');
    const { contractBin } = await import('../support/bins.ts');
    const child = spawn(
      process.execPath,
      contractBin(
        'snapshot',
        ...['--base-url', `${proxy.url}/api/answers/v1`, '--api-key', KEYS.full, '--out', out],
      ),
    );
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    // Interrupted while its first object list is held by the proxy.
    await holding;
    child.kill('SIGINT');
    const code = await new Promise((resolve) => child.once('close', resolve));
    release();
    expect(code, stderr).toBe(130);
    expect(stderr).toMatch(/nothing written/);
    expect(await readdir(dir)).toEqual([]);
  }, 60_000);
});
