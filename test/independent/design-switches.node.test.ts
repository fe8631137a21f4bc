/**
 * Issue 48's design switches of the independent server, each doing what designs.ts describes it
 * as (a delayed cascade, per-field limits, an update in parts, hits of the whole object), and the
 * seeded variant of each breaking that one rule. The matrix and explore judge them through the
 * kit (designs.node.test.ts, test/contract/proofs/explore-designs.node.test.ts); this file checks
 * the server itself, over HTTP, so that a false alarm there is the kit's and not the server's.
 */
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DESIGN_VARIANTS } from './explore-variants.ts';
import {
  CASCADE_MS,
  startIndependentServer,
  type Design,
  type IndependentServer,
} from './server.ts';
import type { VariantName } from './variants.ts';

const servers: IndependentServer[] = [];
afterEach(async () => {
  vi.useRealTimers();
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

interface Client {
  call(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }>;
}

async function start(
  design: Design,
  variant?: VariantName,
  paging?: 'link-header',
): Promise<Client> {
  const server = await startIndependentServer({ design, variant, ...(paging ? { paging } : {}) });
  servers.push(server);
  return {
    async call(method, path, body) {
      const response: Response = await fetch(`${server.url}${path}`, {
        method,
        headers: { 'x-answers-api-key': server.keys.full, 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const text = await response.text();
      return { status: response.status, body: text ? JSON.parse(text) : undefined };
    },
  };
}

/** A value nested `levels` deep: an object of scalars is 1. */
const nested = (levels: number): unknown =>
  levels <= 1 ? { leaf: 1 } : { down: nested(levels - 1) };

async function collectionWith(client: Client, meta: unknown = {}): Promise<string> {
  const made = await client.call('POST', '/api/answers/collections', {
    title: 'Switch notes',
    meta,
  });
  expect(made.status).toBe(201);
  return made.body.result.collectionId;
}

describe('fieldLimits: per-field', () => {
  const big = { text: 'x'.repeat(8200) };

  it.each([
    ['metadata over 8 KiB', big],
    ['metadata nested 9 levels', nested(9)],
  ])(
    'refuses a collection made with %s: 400 with a problem body, nothing created',
    async (_, meta) => {
      const client = await start({ fieldLimits: 'per-field' });
      const before = await client.call('GET', '/v1/collections?size=50');
      const refused = await client.call('POST', '/api/answers/collections', { title: 'Big', meta });
      expect(refused.status).toBe(400);
      expect(refused.body).toEqual({ problem: expect.stringMatching(/metadata/), code: 27 });
      const after = await client.call('GET', '/v1/collections?size=50');
      expect(after.body.items).toHaveLength(before.body.items.length);
    },
  );

  it('takes metadata nested 8 levels (the limit itself), and takes anything with no limits', async () => {
    const client = await start({ fieldLimits: 'per-field' });
    await collectionWith(client, { a: nested(7) });
    const roomy = await start({ fieldLimits: 'none' });
    await collectionWith(roomy, { ...big, deep: nested(12) });
  });

  it('refuses an update whose metadata would pass 8 KiB, and stores nothing of it', async () => {
    const client = await start({ fieldLimits: 'per-field', update: 'merge' });
    const id = await collectionWith(client, { first: 'y'.repeat(5000) });
    const refused = await client.call('PATCH', `/api/answers/collections/${id}`, {
      title: 'Renamed',
      meta: { second: 'z'.repeat(5000) },
    });
    expect(refused.status).toBe(400);
    const got = await client.call('GET', `/api/answers/collections/${id}`);
    expect(got.body.result.meta).toEqual({ first: 'y'.repeat(5000) });
    expect(got.body.result.title).toBe('Switch notes');
  });

  it('refuses content nested 9 levels, on a create and a replace, and stores nothing', async () => {
    const client = await start({ fieldLimits: 'per-field' });
    const id = await collectionWith(client);
    const objects = `/api/answers/collections/${id}/objects`;
    expect((await client.call('POST', objects, { body: nested(9) })).status).toBe(400);
    const made = await client.call('POST', objects, { body: nested(8) });
    expect(made.status).toBe(201);
    const at = `/api/answers/objects/${made.body.objectId}`;
    expect((await client.call('PUT', at, { body: nested(9) })).status).toBe(400);
    expect((await client.call('GET', at)).body.body).toEqual(nested(8));
    expect(
      (await client.call('GET', `/api/answers/collections/${id}`)).body.result.objectsTotal,
    ).toBe(1);
  });

  it('the refusal-half-applies variant answers 400 and stores the metadata anyway', async () => {
    const client = await start({ fieldLimits: 'per-field' }, 'refusal-half-applies');
    const id = await collectionWith(client);
    const refused = await client.call('PATCH', `/api/answers/collections/${id}`, { meta: big });
    expect(refused.status).toBe(400);
    expect((await client.call('GET', `/api/answers/collections/${id}`)).body.result.meta).toEqual(
      big,
    );
  });
});

describe('cascade: delayed', () => {
  /** A collection with one object, deleted at a fixed time: the object's path and the clock. */
  async function deletedWithObject(client: Client) {
    const id = await collectionWith(client);
    const made = await client.call('POST', `/api/answers/collections/${id}/objects`, {
      body: { text: 'quince marmalade' },
    });
    vi.useFakeTimers({ toFake: ['Date'], now: Date.UTC(2026, 0, 1) });
    expect((await client.call('DELETE', `/api/answers/collections/${id}`)).status).toBe(200);
    return `/api/answers/objects/${made.body.objectId}`;
  }

  it(`answers a deleted collection's object by get and search for ${CASCADE_MS} ms, then never`, async () => {
    const client = await start({ cascade: 'delayed', gone: 410 });
    const at = await deletedWithObject(client);
    vi.advanceTimersByTime(CASCADE_MS - 1);
    expect((await client.call('GET', at)).status).toBe(200);
    const found = await client.call('POST', '/api/answers/query', { q: 'quince' });
    expect(found.body.hits.total).toBe(1);
    // @note A write meets the cascade under way: the object is gone to it.
    expect((await client.call('PUT', at, { body: { text: 'pear' } })).status).toBe(410);
    vi.advanceTimersByTime(1);
    expect((await client.call('GET', at)).status).toBe(410);
    expect((await client.call('POST', '/api/answers/query', { q: 'quince' })).body.hits.total).toBe(
      0,
    );
  });

  it('removes them with the collection when at once (the default)', async () => {
    const client = await start({ gone: 404 });
    const at = await deletedWithObject(client);
    expect((await client.call('GET', at)).status).toBe(404);
  });

  it('the cascade-never-completes variant still answers them an hour later', async () => {
    const client = await start({ cascade: 'delayed' }, 'cascade-never-completes');
    const at = await deletedWithObject(client);
    vi.advanceTimersByTime(3_600_000);
    expect((await client.call('GET', at)).status).toBe(200);
  });
});

describe('updateOps: split', () => {
  it('replaces metadata whole by PUT …/metadata, renames by PATCH, refuses metadata in a PATCH', async () => {
    const client = await start({ updateOps: 'split', update: 'merge' });
    const id = await collectionWith(client, { kept: false, shelf: 'top' });
    const put = await client.call('PUT', `/api/answers/collections/${id}/metadata`, {
      shelf: 'low',
    });
    expect(put.status).toBe(200);
    expect(put.body.result.meta).toEqual({ shelf: 'low' });
    const patched = await client.call('PATCH', `/api/answers/collections/${id}`, {
      title: 'Shelves',
    });
    expect(patched.body.result).toMatchObject({ title: 'Shelves', meta: { shelf: 'low' } });
    const refused = await client.call('PATCH', `/api/answers/collections/${id}`, {
      meta: { a: 1 },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.problem).toMatch(/PUT \/api\/answers\/collections\/\{id\}\/metadata/);
    const got = await client.call('GET', `/api/answers/collections/${id}`);
    expect(got.body.result).toEqual(patched.body.result);
  });

  it('offers no …/metadata resource to a server updating by one PATCH', async () => {
    const client = await start({ updateOps: 'one' });
    const id = await collectionWith(client);
    expect((await client.call('PUT', `/api/answers/collections/${id}/metadata`, {})).status).toBe(
      404,
    );
  });

  it('the rename-not-in-summaries variant lists the old title after a rename (a get shows the new)', async () => {
    const client = await start({ updateOps: 'split' }, 'rename-not-in-summaries');
    const id = await collectionWith(client);
    await client.call('PATCH', `/api/answers/collections/${id}`, { title: 'Renamed' });
    expect((await client.call('GET', `/api/answers/collections/${id}`)).body.result.title).toBe(
      'Renamed',
    );
    const listed = await client.call('GET', '/v1/collections?size=50');
    const summary = listed.body.items.find((c: { collectionId: string }) => c.collectionId === id);
    expect(summary.title).toBe('Switch notes');
  });
});

describe('hits', () => {
  async function updatedAndSearched(design: Design, variant?: VariantName) {
    const client = await start(design, variant);
    const id = await collectionWith(client);
    const made = await client.call('POST', `/api/answers/collections/${id}/objects`, {
      body: { text: 'damson jam' },
    });
    const at = `/api/answers/objects/${made.body.objectId}`;
    await client.call('PUT', at, { body: { text: 'damson jelly' } });
    const hits = await client.call('POST', '/api/answers/query', { q: 'damson' });
    return { item: hits.body.hits.list[0].item, got: (await client.call('GET', at)).body };
  }

  it('object: a hit holds the object exactly as a get shows it', async () => {
    const { item, got } = await updatedAndSearched({ hits: 'object' });
    expect(item).toEqual(got);
  });

  it('content: a hit holds the object id and its content alone', async () => {
    const { item, got } = await updatedAndSearched({ hits: 'content' });
    expect(item).toEqual({ objectId: got.objectId, body: got.body });
  });

  it('the hit-object-differs variant holds the object as created: content, changedMs and revision differ', async () => {
    const { item, got } = await updatedAndSearched({ hits: 'object' }, 'hit-object-differs');
    expect(item).toMatchObject({
      objectId: got.objectId,
      revision: 1,
      body: { text: 'damson jam' },
    });
    expect(got.revision).toBe(2);
  });
});

describe('the link-walk-skips-after-delete variant', () => {
  /** Walks the list by its `Link` headers, 3 a page, deleting `victim` once page 1 is read. */
  async function walk(variant?: VariantName): Promise<{ seen: string[]; all: string[] }> {
    const client = await start({}, variant, 'link-header');
    const ids = [];
    for (let i = 0; i < 4; i += 1) ids.push(await collectionWith(client));
    const all = (await client.call('GET', '/v1/collections?size=50')).body.items.map(
      (c: { collectionId: string }) => c.collectionId,
    );
    const seen: string[] = [];
    let next: string | undefined = '/v1/collections?size=3';
    let first = true;
    while (next) {
      const response: Response = await fetch(
        `${(servers.at(-1) as IndependentServer).url}${next}`,
        {
          headers: { 'x-answers-api-key': (servers.at(-1) as IndependentServer).keys.full },
        },
      );
      const page = (await response.json()) as { items: Array<{ collectionId: string }> };
      seen.push(...page.items.map((c) => c.collectionId));
      if (first) await client.call('DELETE', `/api/answers/collections/${seen[0]}`);
      first = false;
      next = /<([^>]+)>; rel="next"/.exec(response.headers.get('link') ?? '')?.[1];
    }
    return { seen, all: all.slice(1) };
  }

  it('a correct walk sees every collection still there once, a delete on page 1 notwithstanding', async () => {
    const { seen, all } = await walk();
    expect(all.every((id: string) => seen.includes(id))).toBe(true);
  });

  it('the variant skips one that still exists', async () => {
    const { seen, all } = await walk('link-walk-skips-after-delete');
    expect(all.filter((id: string) => !seen.includes(id))).toHaveLength(1);
  });
});

it("docs/independent-server.md lists exactly the variants of issue 48's designs, with their clauses", () => {
  const doc = readFileSync(new URL('../../docs/independent-server.md', import.meta.url), 'utf8');
  const section = doc.split("## Variants of issue 48's designs")[1]?.split('\n## ')[0] ?? '';
  const rows = section
    .split('\n')
    .filter((line) => /^\| [^|]+\| `[a-z0-9-]+` +\|/.test(line))
    .map((line) => line.split('|').map((cell) => cell.trim().replace(/^`|`$/g, '')))
    .map((cells) => [cells[2], cells[3]]);
  expect(rows).toEqual(DESIGN_VARIANTS.map((row) => [row.variant, row.clause]));
});
