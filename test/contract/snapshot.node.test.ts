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

/** Words of several scripts, each in a few objects: what the anonymized searches look for. */
const VOCABULARY = (
  'apricot Birne cerise Dattel elderberry Feige グアバ 葡萄 Ινδικό jujube Киви лимон ' +
  'mango nectarine olive Papaya quince rambutan satsuma tamarind ugli vanille ' +
  'Wassermelone xigua yuzu zitrone αχλάδι вишня 무화과 Kürbis'
).split(' ');

/** Adds `count` collections of 8 objects, each object 3 words of the vocabulary, with nested metadata. */
async function addWords(base: string, key: string, count: number): Promise<void> {
  const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
  const word = (n: number) => VOCABULARY[n % VOCABULARY.length]!;
  for (let i = 0; i < count; i++) {
    const made = await fetch(`${base}/api/answers/collections`, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        title: `Fruits ${i}: ${word(i)} ΚΑΙ ${word(i + 5)}`,
        meta: { owner: { team: `équipe ${word(i * 3)}`, tags: [word(i * 7), 7] }, active: true },
      }),
    });
    expect(made.status).toBe(201);
    const { result } = (await made.json()) as { result: { collectionId: string } };
    for (let j = 0; j < 8; j++) {
      const text = `${word(i + j)} and ${word(i * 2 + j * 3 + 1)}, then ${word(i * 5 + j * 7 + 2)}!`;
      const posted = await fetch(`${base}/api/answers/collections/${result.collectionId}/objects`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ body: { text, note: { lang: 'Übersicht', n: j } } }),
      });
      expect(posted.status).toBe(201);
    }
  }
}

/** Every string value of a JSON value. */
const strings = (value: unknown): string[] =>
  typeof value === 'string'
    ? [value]
    : Array.isArray(value)
      ? value.flatMap(strings)
      : value && typeof value === 'object'
        ? Object.values(value).flatMap(strings)
        : [];

describe('snapshot --anonymize', () => {
  it('leaves no string of the deployment in the state, and a search for a replaced word finds the same objects', async () => {
    independent = await startIndependentServer({});
    await addWords(independent.url, independent.keys.full, 20);
    const out = join(dir, 'anon.json');
    const run = (file: string) =>
      contract([
        'snapshot',
        ...['--base-url', independent!.url, '--api-key', independent!.keys.full],
        ...['--target', TARGET, '--out', file, '--anonymize', '--seed', '7'],
      ]);
    const { code, stdout, stderr } = await run(out);
    expect(code, stderr).toBe(0);
    expect(stdout).toMatch(
      /^Anonymized \(--seed 7\): .*kept as they were: .*object keys.*numbers, booleans and null/m,
    );
    const state = await loaded(out);
    const map = JSON.parse(await readFile(`${out}.map.json`, 'utf8')) as {
      collections: Record<string, string>;
      objects: Record<string, string>;
    };

    // What the deployment holds, as its own API answers it.
    const headers = { authorization: `Bearer ${independent.keys.full}` };
    const source = await heldBy(independent.url, independent.keys.full);
    const objects = new Map<string, { text?: unknown }>();
    for (const collection of source) {
      const page = (await (
        await fetch(
          `${independent.url}/api/answers/collections/${collection.collectionId}/objects?size=50`,
          { headers },
        )
      ).json()) as { items: Array<{ objectId: string; body: { text?: unknown } }> };
      for (const item of page.items) objects.set(item.objectId, item.body);
    }
    // Ours, and what the server holds from the start.
    expect(objects.size).toBeGreaterThanOrEqual(160);

    // No string of the deployment with a letter in it is in the state, nor any of its words.
    const held = [
      ...source.flatMap((c) => [c.title, ...strings(c.meta)]),
      ...[...objects.values()].flatMap(strings),
    ].filter((text) => /\p{L}/u.test(text));
    const stored = [
      ...state.collections.flatMap((c) => [c.name, ...strings(c.metadata)]),
      ...state.objects.flatMap((o) => strings(o.content)),
    ];
    const storedWords = new Set(
      stored.flatMap((text) => text.toLowerCase().match(/\p{L}+/gu) ?? []),
    );
    for (const text of held) {
      expect(stored).not.toContain(text);
      for (const word of text.toLowerCase().match(/\p{L}{4,}/gu) ?? [])
        expect(storedWords.has(word), word).toBe(false);
    }
    // Numbers, booleans and keys as they were.
    const fruits = state.collections.filter((c) => /^\p{L}+ 0: /u.test(c.name));
    expect(fruits).toHaveLength(1);
    expect(fruits[0]!.metadata).toEqual({
      owner: { team: expect.any(String), tags: [expect.any(String), 7] },
      active: true,
    });

    // 10 words, each searched on the deployment and its replacement on the mock: the same objects.
    const mock = await createMock({ initialState: state });
    server = await startServer({ mock, port: 0, quiet: true });
    const replacementOf = (word: string) => {
      for (const [sourceId, body] of objects) {
        const at = typeof body.text === 'string' ? body.text.indexOf(word) : -1;
        if (at < 0) continue;
        const mockId = Object.keys(map.objects).find((id) => map.objects[id] === String(sourceId))!;
        const copy = state.objects.find((o) => o.id === mockId)!.content as { text: string };
        return copy.text.slice(at, at + word.length);
      }
      throw new Error(`${word} is in no object`);
    };
    for (const word of VOCABULARY.slice(0, 10)) {
      const found = (await (
        await fetch(`${independent.url}/api/answers/query`, {
          method: 'POST',
          headers: { ...headers, 'content-type': 'application/json' },
          body: JSON.stringify({ q: word }),
        })
      ).json()) as { hits: { list: Array<{ item: { objectId: string } }> } };
      const replacement = replacementOf(word);
      expect(replacement.toLowerCase()).not.toBe(word.toLowerCase());
      const answered = (await (
        await fetch(`${server.url}/api/answers/v1/search`, {
          method: 'POST',
          headers: {
            authorization: `Bearer ${DEV_KEYS_BY_ROLE.full}`,
            'content-type': 'application/json',
          },
          body: JSON.stringify({ query: replacement, limit: 100 }),
        })
      ).json()) as { data: Array<{ object: { id: string } }> };
      const deployment = found.hits.list.map((hit) => String(hit.item.objectId)).sort();
      expect(deployment.length, word).toBeGreaterThan(0);
      expect(answered.data.map((hit) => map.objects[hit.object.id]).sort(), word).toEqual(
        deployment,
      );
    }

    // The same seed, the same state.
    const again = join(dir, 'again.json');
    expect((await run(again)).code).toBe(0);
    const names = (s: Snapshot) => s.collections.map((c) => c.name).sort();
    expect(names(await loaded(again))).toEqual(names(state));
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

  it('shows its progress on a terminal, and none of it in a pipe', async () => {
    const source = await createMock();
    server = await startServer({ mock: source, port: 0, quiet: true });
    const { execFile } = await import('node:child_process');
    const { contractBin } = await import('../support/bins.ts');
    const args = (out: string) =>
      contractBin(
        'snapshot',
        ...['--base-url', `${server!.url}/api/answers/v1`, '--api-key', KEYS.full, '--out', out],
      );
    const run = (argv: string[]) =>
      new Promise<{ stdout: string; stderr: string }>((resolve, reject) =>
        execFile(process.execPath, argv, (error, stdout, stderr) =>
          error ? reject(error) : resolve({ stdout, stderr }),
        ),
      );
    // A terminal, as Node tells one: stderr's isTTY, set before the command starts.
    const terminal = await run([
      '--import',
      'data:text/javascript,process.stderr.isTTY=true',
      ...args(join(dir, 'tty.json')),
    ]);
    const steps = terminal.stderr.split('\r').filter(Boolean);
    const collections = source.controls
      .export()
      .collections.filter(
        (c) =>
          c.account_id ===
          source.controls.export().api_keys.find((k) => k.key === KEYS.full)!.account_id,
      );
    expect(steps.length).toBeGreaterThanOrEqual(collections.length);
    const [total] = /(\d+) objects,/.exec(terminal.stdout)!.slice(1);
    expect(steps.at(-1)).toBe(
      `snapshot: ${collections.length} collections, ${total} objects read\n`,
    );
    const pipe = await run(args(join(dir, 'pipe.json')));
    expect(pipe.stderr).toBe('');
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
