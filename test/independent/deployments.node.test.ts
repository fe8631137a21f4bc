/**
 * The suite against deployments as they are, not as a loopback test server is: page numbers and
 * offsets, next links to another origin, a delete that only hides, a busy server that asks to
 * wait, and a search index that shows writes a moment later. Each is the independent server
 * started with one option, described by its own target file.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { CHECKS } from '../../src/contract/checks/index.ts';
import { formatReport, toJUnit } from '../../src/contract/report.ts';
import { runContract, type ContractReport } from '../../src/contract/runner.ts';
import { loadTargetFile, parseTargetDescription } from '../../src/contract/target-api/load.ts';
import { draftTarget } from '../../src/contract/init.ts';
import { contract } from '../support/contract-cli.ts';
import { startForeignHost, type ForeignHost } from './foreign-host.ts';
import { startIndependentServer, type Paging } from './server.ts';
import type { VariantName } from './variants.ts';

const file = (name: string) => fileURLToPath(new URL(name, import.meta.url));

const stops: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const stop of stops.splice(0).reverse()) await stop();
});

async function judge(
  options: {
    target?: string;
    variant?: VariantName;
    paging?: Paging;
    foreign?: ForeignHost;
    indexLag?: number;
    busyEvery?: number;
    log?: Array<{ method: string; path: string }>;
    level?: 'spec' | 'profile';
    destructive?: boolean;
    settleMs?: number;
    descriptionText?: string;
    checks?: string[];
  } = {},
): Promise<ContractReport> {
  const server = await startIndependentServer({
    port: 0,
    variant: options.variant,
    paging: options.paging,
    foreignOrigin: options.foreign?.origin,
    indexLag: options.indexLag,
    busyEvery: options.busyEvery,
    log: options.log,
  });
  stops.push(server.close);
  const description = options.descriptionText
    ? parseTargetDescription(options.descriptionText, 'inline')
    : await loadTargetFile(file(options.target ?? 'target.yaml'));
  return runContract({
    baseUrl: server.url,
    keys: server.keys,
    checks: options.checks ? CHECKS.filter((c) => options.checks!.includes(c.id)) : CHECKS,
    destructive: options.destructive ?? true,
    settleMs: options.settleMs,
    level: options.level,
    description,
  });
}

const failed = (report: ContractReport) =>
  report.results.filter((r) => r.outcome === 'fail').map((r) => `${r.id}: ${r.reason}`);
const outcome = (report: ContractReport, id: string) =>
  report.results.find((r) => r.id === id)?.outcome;

describe.each([
  ['page numbers', 'pages', 'target-pages.yaml'],
  ['offsets', 'offset', 'target-offset.yaml'],
] as const)('a server that pages by %s, described', (_, paging, target) => {
  it.each([true, false])('passes, destructive %s, walking every page', async (destructive) => {
    const report = await judge({ paging, target, destructive });
    expect(failed(report)).toEqual([]);
    expect(report.failed).toBe(false);
    expect(report.leftBehind).toEqual([]);
    // The walks ran over more than one page (pages of 2 over 7 or more collections) and passed.
    expect(outcome(report, 'list.walk')).toBe('pass');
    expect(outcome(report, 'list.order')).toBe('pass');
    // No profile noise: our document's checks did not run against a server that never adopted it.
    expect(report.results.filter((r) => r.level === 'profile')).toEqual([]);
    expect(report.counts.fail).toBe(0);
    expect(toJUnit(report)).not.toMatch(/failures="[1-9]|answers-contract\.profile/);
    expect(formatReport(report)).not.toMatch(/FAIL/);
  });

  it('is not called walked "over every page" when the description cannot ask for page 2', async () => {
    // The default description pages by a token it reads at /next_cursor: there is none here, so
    // a description without its paging sees page 1 only, and says so.
    const text = (await import('node:fs')).readFileSync(file(target), 'utf8');
    const pagingLess = text.replace(/^paging:\n( {2}.*\n)+/m, 'paging:\n  pageSize: nothing\n');
    const report = await judge({
      paging,
      descriptionText: pagingLess.replace(
        'items: /results',
        'items: /results\n  next: /results/0/collectionId',
      ),
    });
    const walk = report.results.find((r) => r.id === 'list.walk')!;
    expect(walk.outcome).toBe('skip');
    expect(walk.reason).toMatch(/only page 1 \(\d+ items\) was seen/);
    expect(outcome(report, 'list.order')).toBe('skip');
  });
});

describe('--level profile against a server that did not adopt our document', () => {
  it('runs the profile checks, and sends nothing to a path the description does not have', async () => {
    const log: Array<{ method: string; path: string }> = [];
    // @note target.yaml offers every operation of our document; without listObjects, the profile
    // checks that need it skip.
    const text = await readFile(file('target.yaml'), 'utf8');
    const withoutListObjects = text.replace(/^ {2}listObjects: .*\n/m, '');
    expect(withoutListObjects).not.toBe(text);
    const report = await judge({ level: 'profile', log, descriptionText: withoutListObjects });
    expect(report.results.some((r) => r.level === 'profile')).toBe(true);
    // Every path asked for is a described operation's path (with its ids filled in); the one
    // method no operation describes is methods.not-allowed's, on a described path.
    const described = Object.values((await loadTargetFile(file('target.yaml'))).operations).map(
      ({ method, path }) => ({
        method,
        pattern: new RegExp(`^${path.replace(/\{[a-z_]+\}/g, '[^/]+')}$`),
      }),
    );
    const undescribed = log.filter(
      ({ method, path }) =>
        !described.some((d) => d.pattern.test(path) && (d.method === method || method === 'PUT')),
    );
    expect(undescribed).toEqual([]);
    // Those of our document's decisions it cannot ask about without our operations skip, saying so.
    const skipped = report.results.filter((r) => r.outcome === 'skip').map((r) => r.reason);
    expect(skipped).toContain('the target description (inline) offers no listObjects');
  });
});

describe('a server that pages by number without totals, past its last page', () => {
  it.each(['404', 'clamp'] as const)(
    'answering %s there, is walked to its end and passes',
    async (pastLast) => {
      const text = (await import('node:fs')).readFileSync(file('target-pages.yaml'), 'utf8');
      const server = await startIndependentServer({
        port: 0,
        paging: 'pages',
        habits: { pastLast },
      });
      stops.push(server.close);
      const report = await runContract({
        baseUrl: server.url,
        keys: server.keys,
        checks: CHECKS,
        destructive: true,
        description: parseTargetDescription(
          text.replace('  totalPages: /pages\n', ''),
          'no-totals',
        ),
      });
      expect(failed(report)).toEqual([]);
      expect(outcome(report, 'list.walk')).toBe('pass');
      expect(report.requests).toBeLessThan(1_000);
    },
  );
});

describe('a server whose next links name another origin', () => {
  it.each([true, false])(
    'never sends that origin a key, and fails the walk naming it (destructive %s)',
    async (destructive) => {
      const foreign = await startForeignHost();
      stops.push(foreign.close);
      const report = await judge({ variant: 'foreign-next-link', foreign, destructive });
      expect(report.failed).toBe(true);
      const walk = report.results.find((r) => r.id === 'list.walk')!;
      expect(walk.outcome).toBe('fail');
      expect(walk.reason).toContain(`to another origin, ${foreign.origin}`);
      expect(foreign.requests).toEqual([]);
    },
  );

  it('follows them without any credential where the description says so', async () => {
    const foreign = await startForeignHost();
    stops.push(foreign.close);
    const text = (await import('node:fs')).readFileSync(file('target.yaml'), 'utf8');
    const report = await judge({
      variant: 'foreign-next-link',
      foreign,
      descriptionText: text.replace('  follow: true', '  follow: true\n  crossOrigin: withoutKey'),
    });
    expect(foreign.requests.length).toBeGreaterThan(0);
    expect(foreign.credentialed()).toEqual([]);
    expect(report.foreignUrls.every((url) => url.startsWith(foreign.origin))).toBe(true);
    expect(report.foreignUrls.length).toBeGreaterThan(0);
    // The other host is no Answers server: the walks that reached it fail.
    expect(outcome(report, 'list.walk')).toBe('fail');
  });
});

describe('a server that deletes into a trash bin', () => {
  it('fails delete.collection and reports every run collection still listed as left behind', async () => {
    const report = await judge({ variant: 'trash-bin', target: 'target-trash-bin.yaml' });
    expect(report.failed).toBe(true);
    expect(failed(report).map((f) => f.split(':')[0])).toEqual(['delete.collection']);
    expect(report.leftBehind.length).toBeGreaterThan(0);
    for (const left of report.leftBehind) expect(left).toMatch(/still listed after its delete/);
  });

  it('the correct server, so described, leaves nothing behind', async () => {
    const report = await judge({ target: 'target-trash-bin.yaml' });
    expect(failed(report)).toEqual([]);
    expect(report.leftBehind).toEqual([]);
  });
});

describe('a busy server that answers 429 with Retry-After', () => {
  it('is waited for, counted and reported, and the run passes', async () => {
    const report = await judge({ busyEvery: 7 });
    expect(failed(report)).toEqual([]);
    expect(report.pushback.waits).toBeGreaterThan(0);
  });
});

describe('a search index that shows a write two searches later', () => {
  it('fails search.finds without --settle', async () => {
    // @note search.finds alone: other checks' searches would move the index on.
    const report = await judge({ indexLag: 2, checks: ['search.finds'] });
    expect(outcome(report, 'search.finds')).toBe('fail');
  });

  it('passes with --settle, which reports the reads it asked again', async () => {
    const report = await judge({ indexLag: 2, settleMs: 10_000 });
    expect(failed(report)).toEqual([]);
    expect(report.settle.polls).toBeGreaterThan(0);
    expect(report.settle.maxLagMs).toBeGreaterThan(0);
  });
});

describe('answers-contract init against each way to page', () => {
  it.each([
    ['links', { follow: true, pageSize: 'size' }],
    ['link-header', { follow: true, pageSize: 'size' }],
    ['pages', { page: 'page', pageSize: 'per_page', totalPages: '/pages' }],
    ['offset', { offset: 'offset', pageSize: 'limit', totalItems: '/total' }],
  ] as const)(
    'recognises %s paging, drafts the name, and the draft walks every page',
    async (paging, expected) => {
      const server = await startIndependentServer({ port: 0, paging });
      stops.push(server.close);
      const draft = await draftTarget(server.url, server.keys.full);
      const description = parseTargetDescription(draft, 'draft.yaml');
      expect(description.paging).toMatchObject(expected);
      if (paging === 'link-header') expect(description.list.next).toEqual({ header: 'Link' });
      expect(description.collection.name).toBe('/title');
      const report = await runContract({
        baseUrl: server.url,
        keys: server.keys,
        checks: CHECKS,
        description,
      });
      expect(failed(report)).toEqual([]);
      expect(outcome(report, 'list.walk')).toBe('pass');
    },
  );
});

describe('answers-contract, the command, against described deployments', () => {
  it.each([
    ['pages', undefined, 'target-pages.yaml', 0],
    ['offset', undefined, 'target-offset.yaml', 0],
    ['links', 'trash-bin', 'target-trash-bin.yaml', 1],
  ] as const)(
    'paging by %s, variant %s: exits %i, and a green JUnit report counts no failure',
    async (paging, variant, target, code) => {
      const server = await startIndependentServer({ port: 0, paging, variant });
      stops.push(server.close);
      const dir = await mkdtemp(join(tmpdir(), 'answers-deployments-'));
      stops.push(() => rm(dir, { recursive: true, force: true }));
      const { full, readonly, otherAccount, inactive } = server.keys;
      const result = await contract([
        '--base-url',
        server.url,
        '--target',
        file(target),
        '--api-key',
        full,
        '--readonly-key',
        readonly,
        '--other-account-key',
        otherAccount,
        '--inactive-key',
        inactive,
        '--destructive',
        '--junit',
        join(dir, 'junit.xml'),
      ]);
      expect(result.code, result.stdout.slice(-1500)).toBe(code);
      const junit = await readFile(join(dir, 'junit.xml'), 'utf8');
      expect(junit).not.toContain('answers-contract.profile');
      if (code === 0) {
        expect(result.stdout).not.toMatch(/FAIL/);
        // @note These descriptions offer no deleteObject: delete.object skips, saying so.
        expect(junit).toMatch(
          /<testsuites name="answers-contract" tests="18" failures="0" errors="0" skipped="1"/,
        );
        expect(result.stdout).toMatch(/^SKIP {2}delete\.object /m);
      } else {
        expect(result.stdout).toMatch(/^FAIL {2}delete\.collection/m);
        expect(result.stdout).toMatch(/left behind on the target \(the run fails\)/);
      }
    },
    90_000,
  );
});

describe('a target that redirects to another origin', () => {
  it('is never followed: the run stops naming that origin, which receives nothing', async () => {
    const foreign = await startForeignHost();
    stops.push(foreign.close);
    const redirecting = createServer((request, response) => {
      response.writeHead(307, { location: `${foreign.origin}${request.url}` });
      response.end();
    });
    await new Promise<void>((resolve) => redirecting.listen(0, '127.0.0.1', resolve));
    stops.push(() => new Promise<void>((resolve) => redirecting.close(() => resolve())));
    const { port } = redirecting.address() as AddressInfo;
    const run = runContract({
      baseUrl: `http://127.0.0.1:${port}/api/answers/v1`,
      keys: { full: 'a-key-that-must-stay-home' },
      checks: CHECKS,
    });
    await expect(run).rejects.toThrow(`a redirect to another origin, ${foreign.origin}`);
    expect(foreign.requests).toEqual([]);
  });
});

describe('a correct server with habits of real search services', () => {
  it.each([true, false])(
    'passes (destructive %s) though its hits mark words, cut texts short and ignore the scope',
    async (destructive) => {
      const server = await startIndependentServer({
        port: 0,
        habits: { highlight: true, scopeIgnored: true },
      });
      stops.push(server.close);
      const report = await runContract({
        baseUrl: server.url,
        keys: server.keys,
        checks: CHECKS,
        destructive,
        description: await loadTargetFile(file('target.yaml')),
      });
      expect(failed(report)).toEqual([]);
      expect(report.leftBehind).toEqual([]);
      for (const id of ['object.get', 'search.finds', 'list.summaries'])
        expect(outcome(report, id), id).toBe('pass');
    },
  );
});
