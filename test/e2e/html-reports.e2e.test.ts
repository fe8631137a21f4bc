/**
 * The `--html` reports (issue 50) in Chromium: each command run as a user runs it, with `--json`
 * and `--html`, against a mock with a deliberate defect (for `diff`, counts that are wrong); each
 * page opened from its file with no console error and nothing fetched, and read back: its clause
 * rows, their verdicts, its stories and their steps, and the step that diverged, exactly as the
 * same run's `--json` says, worked out here from the JSON by the rules each command's report
 * states. The failed explore run's page is saved in screenshots/ (and, with
 * UPDATE_SCREENSHOTS=1, in docs/images/ for the README).
 */
import { execFile } from 'node:child_process';
import { copyFile, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { chromium, type Browser } from 'playwright';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assemble } from '../../src/assemble.ts';
import { recordingMock } from '../../src/core/recorder.ts';
import { withFault } from '../../src/faults/index.ts';
import { createMock, DEV_KEYS } from '../../src/index.ts';
import { startServer, type RunningServer } from '../../src/node/server.ts';
import { CHROMIUM_LAUNCH } from '../support/chromium.ts';
import { KEYS } from '../support/keys.ts';
import { scratchDir } from '../support/scratch.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const BIN = join(ROOT, 'src/bin/answers-contract.ts');
const TIMEOUT = 120_000;
const PREFIX = '/api/answers/v1';
/** A defect explore, the suite and replay all meet: a nested field of an object's content dropped. */
const FAULT = 'object-nested-content-dropped';

const ENV = {
  ANSWERS_API_KEY: KEYS.full,
  ANSWERS_READONLY_KEY: KEYS.readonly,
  ANSWERS_OTHER_ACCOUNT_KEY: KEYS.globex,
  ANSWERS_INACTIVE_KEY: KEYS.inactive,
};

let browser: Browser;
let faulty: RunningServer;
/** A deployment whose collections' counts are not their objects': what `diff` finds. */
let miscounting: RunningServer;
let dir: string;

/** One command run as typed, its --json and --html in files named after it. */
async function run(name: string, args: string[]) {
  const json = join(dir, `${name}.json`);
  const html = join(dir, `${name}.html`);
  const code = await promisify(execFile)(
    process.execPath,
    ['--import', 'tsx', BIN, ...args, '--json', json, '--html', html],
    { cwd: ROOT, env: { ...process.env, ...ENV }, maxBuffer: 64 * 2 ** 20 },
  ).then(
    () => 0,
    (error: { code?: number }) => error.code ?? -1,
  );
  return { code, json: JSON.parse(await readFile(json, 'utf8')), html };
}

/** What a page shows, read in Chromium, with what it logged and fetched. */
async function read(file: string) {
  const page = await browser.newPage({ viewport: { width: 1100, height: 900 } });
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning') problems.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(String(error)));
  const requested: string[] = [];
  page.on('request', (request) => requested.push(request.url()));
  await page.goto(pathToFileURL(file).href);
  const shown = await page.evaluate(() => ({
    verdict: document.querySelector('.verdict')?.getAttribute('data-verdict'),
    clauses: [...document.querySelectorAll('tr[data-clause]')].map((row) => [
      row.getAttribute('data-clause'),
      row.getAttribute('data-verdict'),
    ]),
    stories: [...document.querySelectorAll('details[data-story]')].map((story) => ({
      clause: story.getAttribute('data-clause'),
      steps: [...story.querySelectorAll('li[data-step]')].map(
        (step) => step.querySelector('[data-side="client"]')?.textContent ?? '',
      ),
      diverged: [...story.querySelectorAll('li[data-step]')].findIndex((step) =>
        step.hasAttribute('data-diverged'),
      ),
      firstDifference:
        story.querySelector('[data-first-difference]')?.getAttribute('data-first-difference') ??
        undefined,
    })),
  }));
  return { page, problems, requested, shown };
}

/** A row's verdict from an outcome of the suite's matrix. */
const SUITE_VERDICT: Record<string, string> = {
  pass: 'passed',
  fail: 'failed',
  skip: 'not judged',
  'not testable': 'not judged',
  'not run': 'not judged',
};

beforeAll(async () => {
  dir = await scratchDir('html-reports');
  browser = await chromium.launch({ headless: true, ...CHROMIUM_LAUNCH });
  faulty = await startServer({
    mock: (await assemble({}, withFault(FAULT))).mock,
    port: 0,
    quiet: true,
  });
  miscounting = await startServer({
    mock: (await assemble({}, withFault('counts-wrong'))).mock,
    port: 0,
    quiet: true,
  });

  // A consumer test recorded against the correct mock: an object with nested content, read back.
  const mock = await createMock();
  const recorder = recordingMock(
    mock,
    () => DEV_KEYS,
    () => 'bills > keeps a nested total',
  );
  const send = async (method: string, path: string, body?: unknown) => {
    const bytes = body === undefined ? undefined : new TextEncoder().encode(JSON.stringify(body));
    const headers = new Map([
      ['authorization', `Bearer ${KEYS.full}`],
      ['content-type', 'application/json'],
    ]);
    const { response } = await recorder.mock.handle({
      method,
      path: `${PREFIX}${path}`,
      query: new URLSearchParams(),
      headers: { get: (name) => headers.get(name) ?? null },
      body: bytes,
    });
    return (response.body ? JSON.parse(response.body) : {}) as { id: string };
  };
  const collection = await send('POST', '/collections', { name: 'bills' });
  const object = await send('POST', `/collections/${collection.id}/objects`, {
    content: { total: 3, lines: { first: { amount: 1 } } },
  });
  await send('GET', `/collections/${collection.id}/objects/${object.id}`);
  await send('DELETE', `/collections/${collection.id}`);
  await writeFile(join(dir, 'bills.recording.json'), JSON.stringify(recorder.recording()));
}, TIMEOUT);
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
  await browser?.close();
  await faulty?.close();
  await miscounting?.close();
});

describe('the --html report of each command, in Chromium', () => {
  it(
    'the suite: its clause matrix and each failed check, as --json says',
    async () => {
      const { code, json, html } = await run('suite', [
        '--base-url',
        `${faulty.url}${PREFIX}`,
        '--destructive',
      ]);
      expect(code).toBe(1);
      const { page, problems, requested, shown } = await read(html);
      expect(shown.verdict).toBe('FAILED at level spec');
      expect(shown.clauses).toEqual(
        json.matrix.map((c: { id: string; outcome: string }) => [c.id, SUITE_VERDICT[c.outcome]]),
      );
      const failed = json.results.filter((r: { outcome: string }) => r.outcome === 'fail');
      expect(failed.length).toBeGreaterThan(0);
      expect(shown.stories.map((s) => s.clause)).toEqual(
        failed.map((r: { broken?: string; clauses: string[] }) => r.broken ?? r.clauses.join(', ')),
      );
      expect([problems, requested.filter((url) => !url.startsWith('file:'))]).toEqual([[], []]);
      await page.close();
    },
    TIMEOUT,
  );

  it(
    'explore, failed: the clauses it judged, the story step by step, the diverging step and the first difference',
    async () => {
      const { code, json, html } = await run('explore', [
        'explore',
        '--base-url',
        `${faulty.url}${PREFIX}`,
        '--destructive',
        '--seed',
        '1',
        '--budget',
        '30s',
      ]);
      expect(code).toBe(1);
      const { story, coverage } = json;
      expect(story.difference).toBeDefined();
      const { page, problems, requested, shown } = await read(html);
      expect(shown.verdict).toBe('DIVERGED');
      // Failed: the story's clause; passed: every clause judged where it could have failed.
      const failed = shown.clauses.filter(([, verdict]) => verdict === 'failed');
      expect(failed).toEqual([[story.clause, 'failed']]);
      const passed = shown.clauses.filter(([, verdict]) => verdict === 'passed').map(([id]) => id);
      expect(passed.sort()).toEqual(
        Object.entries(coverage.clauses as Record<string, number>)
          .filter(([id, n]) => n > 0 && id !== story.clause)
          .map(([id]) => id)
          .sort(),
      );
      for (const id of json.clauseCoverage.reachable)
        expect(shown.clauses.map(([clause]) => clause)).toContain(id);
      expect(shown.stories).toEqual([
        {
          clause: story.clause,
          steps: story.steps.map((step: { request: string }) => step.request),
          diverged: story.divergedAt ?? story.steps.length - 1,
          firstDifference: story.difference.pointer,
        },
      ]);
      // As a reader finds them: the step marked, its difference beside it.
      const marked = page.locator('li[data-diverged]');
      expect(await marked.locator('.side[data-side="client"]').textContent()).toBe(
        story.steps[story.divergedAt ?? story.steps.length - 1].request,
      );
      expect(await marked.locator('[data-first-difference]').textContent()).toContain(
        story.difference.pointer,
      );
      expect([problems, requested.filter((url) => !url.startsWith('file:'))]).toEqual([[], []]);
      await mkdir(join(ROOT, 'screenshots'), { recursive: true });
      const shot = join(ROOT, 'screenshots', 'report-explore.png');
      await marked.scrollIntoViewIfNeeded();
      await page.screenshot({ path: shot });
      if (process.env.UPDATE_SCREENSHOTS === '1')
        await copyFile(shot, join(ROOT, 'docs', 'images', 'report-explore.png'));
      await page.close();
    },
    TIMEOUT,
  );

  it(
    'replay: the consumer test that diverged, with what it saw and what the target answered',
    async () => {
      const { code, json, html } = await run('replay', [
        'replay',
        join(dir, 'bills.recording.json'),
        '--base-url',
        `${faulty.url}${PREFIX}`,
        '--destructive',
      ]);
      expect(code).toBe(1);
      const { page, problems, shown } = await read(html);
      expect(shown.verdict).toBe('FAILED');
      const diverged = json.sequences.filter((s: { divergence?: unknown }) => s.divergence);
      expect(diverged).toHaveLength(1);
      const { divergence } = diverged[0];
      expect(shown.stories).toEqual([
        {
          clause: divergence.clause,
          steps: divergence.steps.map((step: { request: string }) => step.request),
          diverged: divergence.divergedAt,
          firstDifference: divergence.difference?.pointer,
        },
      ]);
      const judged = Object.entries(json.coverage.clauses as Record<string, number>)
        .filter(([id, n]) => n > 0 && id !== divergence.clause)
        .map(([id]) => [id, 'passed']);
      expect(shown.clauses.filter(([, verdict]) => verdict !== 'not judged')).toEqual(
        [...judged, [divergence.clause, 'failed']].sort(([a], [b]) => a!.localeCompare(b!)),
      );
      expect(problems).toEqual([]);
      await page.close();
    },
    TIMEOUT,
  );

  it(
    'diff: each difference a row and a story, failed where it fails the run',
    async () => {
      const state = join(dir, 'state.json');
      const snapshot = await promisify(execFile)(
        process.execPath,
        [
          '--import',
          'tsx',
          BIN,
          'snapshot',
          '--base-url',
          `${miscounting.url}${PREFIX}`,
          '--out',
          state,
        ],
        { cwd: ROOT, env: { ...process.env, ...ENV } },
      );
      expect(snapshot.stdout).toMatch(/^Snapshot of /m);
      const { code, json, html } = await run('diff', [
        'diff',
        '--base-url',
        `${miscounting.url}${PREFIX}`,
        '--snapshot',
        state,
      ]);
      expect(code).toBe(1);
      const { page, problems, shown } = await read(html);
      expect(shown.verdict).toBe('FAILED: new differences at --fail-on spec');
      expect(json.differences.map((d: { clause: string }) => d.clause)).toContain('COLL-2');
      expect(shown.clauses).toEqual(
        json.differences.map((d: { clause: string; class: string; new: boolean }) => [
          d.clause,
          d.new && d.class !== 'profile' ? 'failed' : 'noted',
        ]),
      );
      expect(shown.stories.map((s) => s.clause)).toEqual(
        json.differences.map((d: { clause: string }) => d.clause),
      );
      expect(problems).toEqual([]);
      await page.close();
    },
    TIMEOUT,
  );
});
