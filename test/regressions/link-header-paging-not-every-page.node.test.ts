/**
 * Found by trying the suite as a new user would: a correct server that gives the next page only
 * in an HTTP `Link` header (RFC 8288), which a target description cannot state yet. The read-only
 * suite read page 1, saw no next page in the body, took it for the whole list and passed
 * `list.order` "over every page" (also on a flaw that sorts by label), while `list.walk` said the
 * account had 2 collections (it had 4). A walk that could not ask for page 2 judges no rule about
 * the whole list: both skip, saying the walk could not ask for page 2.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { CHECKS } from '../../src/contract/checks/index.ts';
import { runContract, type ContractReport } from '../../src/contract/runner.ts';
import { parseTargetDescription } from '../../src/contract/target-api/load.ts';

const KEY = 'link-paging-key';

/** Four collections, created a minute apart; their labels sort otherwise than their dates. */
const COLLECTIONS = ['delta', 'alpha', 'echo', 'bravo'].map((label, i) => ({
  id: `c${i + 1}`,
  label,
  created_at: new Date(Date.UTC(2026, 0, 1, 9, i)).toISOString(),
  object_count: 0,
  metadata: {},
}));

/** What the server would be described by: its next page is in no body, so `list.next` finds none. */
const DESCRIPTION = `
operations:
  listCollections: GET /v1/collections
  getCollection: GET /v1/collections/{collection_id}
list:
  items: /items
  next: /next
paging:
  pageSize: limit
collection:
  in: ''
  id: /id
  createdAt: /created_at
  objectCount: /object_count
  metadata: /metadata
  name: /label
`;

/**
 * Pages of `?limit=` items (2 by default) from `?after=`, the next page's URL only in a `Link`
 * header. `byLabel`: the flaw, sorted by label instead of by creation date.
 */
function linkPagingServer(byLabel: boolean): Promise<Server> {
  const sorted = [...COLLECTIONS].sort((a, b) =>
    byLabel ? a.label.localeCompare(b.label) : a.created_at.localeCompare(b.created_at),
  );
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    const send = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      response.writeHead(status, { 'content-type': 'application/json', ...headers });
      response.end(JSON.stringify(body));
    };
    // @note The scheme in any letter case (AUTH-3), or the key in its own header (AUTH-4).
    const bearer = /^bearer (.*)$/i.exec(request.headers.authorization ?? '')?.[1];
    if (bearer !== KEY && request.headers['x-answers-api-key'] !== KEY)
      return send(401, { error: 'unauthorized' });
    if (request.method !== 'GET') return send(405, { error: 'method not allowed' });
    if (url.pathname === '/v1/collections') {
      const limit = Number(url.searchParams.get('limit') ?? '2');
      if (!Number.isInteger(limit) || limit < 1 || limit > 100)
        return send(400, { error: 'limit' });
      const after = url.searchParams.get('after');
      const start = after === null ? 0 : sorted.findIndex((c) => c.id === after) + 1;
      const items = sorted.slice(start, start + limit);
      const more = start + limit < sorted.length;
      const next = `/v1/collections?limit=${limit}&after=${items.at(-1)?.id}`;
      return send(200, { items }, more ? { link: `<${next}>; rel="next"` } : {});
    }
    const one = /^\/v1\/collections\/([^/]+)$/.exec(url.pathname);
    const found = one && COLLECTIONS.find((c) => c.id === decodeURIComponent(one[1]!));
    if (found) return send(200, found);
    return send(404, { error: 'not found' });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

let server: Server | undefined;
afterEach(async () => {
  await new Promise((resolve) => server?.close(resolve));
  server = undefined;
});

async function judge(byLabel: boolean): Promise<ContractReport> {
  server = await linkPagingServer(byLabel);
  const { port } = server.address() as AddressInfo;
  return runContract({
    baseUrl: `http://127.0.0.1:${port}`,
    keys: { full: KEY },
    checks: CHECKS,
    description: parseTargetDescription(DESCRIPTION, 'link-paging.yaml'),
    concurrency: 1,
  });
}

const result = (report: ContractReport, id: string) => report.results.find((r) => r.id === id)!;

describe('a list whose next page is only in a Link header', () => {
  for (const [name, byLabel] of [
    ['on a correct server', false],
    ['on a flaw that sorts by label', true],
  ] as const)
    it(`never passes list.order over every page ${name}`, async () => {
      const report = await judge(byLabel);
      const order = result(report, 'list.order');
      expect(order.outcome, order.reason).toBe('skip');
      expect(order.reason).toMatch(/^the walk could not ask for page 2: /);
      const walk = result(report, 'list.walk');
      expect(walk.outcome, walk.reason).toBe('skip');
      expect(walk.reason).toMatch(/^the walk could not ask for page 2: /);
      // What the walk saw of the list is no count of the account's collections.
      expect(walk.reason).not.toMatch(/found 2|had 2/);
      // Neither the order nor the walk's rule is reported as proven.
      for (const clause of ['COLL-LIST-2', 'COLL-LIST-3'])
        expect(report.matrix.find((c) => c.id === clause)?.outcome, clause).toBe('skip');
    }, 30_000);
});
