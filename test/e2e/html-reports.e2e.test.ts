/**
 * The `--html` reports (issue 50) in Chromium: each command run as a user runs it, with `--json`
 * and `--html`, against a mock with a deliberate defect (for `diff`, counts that are wrong); each
 * page opened from its file with no console error and nothing fetched, and read back from the
 * DOM: its verdict, clause rows, stories, their steps, the step that diverged and its first
 * difference, pushback, what was left and the requests, exactly as the same run's `--json` holds
 * them (`marksOfJson`, test/support/html-report.ts, by the rules each command's report states).
 * The failed explore run's page is also read as a reader would (the marked step, its difference),
 * at 360 px and in dark mode, and saved in screenshots/ (with UPDATE_SCREENSHOTS=1, in
 * docs/images/ too, for the README).
 */
import { execFile } from 'node:child_process';
import { copyFile, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { chromium, type Browser } from 'playwright';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM_LAUNCH } from '../support/chromium.ts';
import {
  consumerRecording,
  marksOfJson,
  REPORT_ENV,
  startReportTargets,
} from '../support/html-report.ts';
import { scratchDir } from '../support/scratch.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const BIN = join(ROOT, 'src/bin/answers-contract.ts');
const TIMEOUT = 120_000;
const PREFIX = '/api/answers/v1';

let browser: Browser;
let targets: Awaited<ReturnType<typeof startReportTargets>>;
let dir: string;

/** One command run as typed, its --json and --html in files named after it. */
async function run(name: string, args: string[]) {
  const json = join(dir, `${name}.json`);
  const html = join(dir, `${name}.html`);
  const code = await promisify(execFile)(
    process.execPath,
    ['--import', 'tsx', BIN, ...args, '--json', json, '--html', html],
    { cwd: ROOT, env: { ...process.env, ...REPORT_ENV }, maxBuffer: 64 * 2 ** 20 },
  ).then(
    () => 0,
    (error: { code?: number }) => error.code ?? -1,
  );
  return { code, json: JSON.parse(await readFile(json, 'utf8')), html };
}

/** What a page shows, read in Chromium (its marks, as test/support/html-report.ts names them). */
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
  const { verdict, ...shown } = await page.evaluate(() => {
    const verdict = document.querySelector('.verdict');
    const pushback = document.querySelector('[data-pushback]')?.getAttribute('data-pushback');
    return {
      verdict: verdict?.getAttribute('data-verdict') ?? undefined,
      passed: verdict?.getAttribute('data-passed') === 'true',
      clauses: [...document.querySelectorAll('tr[data-clause]')].map(
        (row) =>
          [row.getAttribute('data-clause')!, row.getAttribute('data-verdict')!] as [string, string],
      ),
      stories: [...document.querySelectorAll('details[data-story]')].map((story) => {
        const steps = [...story.querySelectorAll('li[data-step]')];
        return {
          clause: story.getAttribute('data-clause') ?? '',
          steps: steps.map((step) => step.querySelector('[data-side="client"]')?.textContent ?? ''),
          diverged: steps.findIndex((step) => step.hasAttribute('data-diverged')),
          firstDifference:
            story.querySelector('[data-first-difference]')?.getAttribute('data-first-difference') ??
            undefined,
        };
      }),
      pushback: pushback === null || pushback === undefined ? undefined : Number(pushback),
      leftBehind: Number(
        document.querySelector('[data-left-behind]')?.getAttribute('data-left-behind'),
      ),
      requests:
        /^\d+/.exec(document.querySelector('dd[data-fact="requests"]')?.textContent ?? '')?.[0] ??
        '',
    };
  });
  return { page, problems, requested, verdict, shown };
}

/** Nothing logged, nothing fetched but the page itself. */
const quiet = ({ problems, requested }: { problems: string[]; requested: string[] }) => [
  problems,
  requested.filter((url) => !url.startsWith('file:')),
];

beforeAll(async () => {
  dir = await scratchDir('html-reports');
  browser = await chromium.launch({ headless: true, ...CHROMIUM_LAUNCH });
  targets = await startReportTargets();
  await writeFile(join(dir, 'bills.recording.json'), await consumerRecording());
}, TIMEOUT);
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
  await browser?.close();
  await targets?.close();
});

describe('the --html report of each command, in Chromium', () => {
  it(
    'the suite: its clause matrix and each failed check with its first difference, as --json says',
    async () => {
      const { code, json, html } = await run('suite', [
        '--base-url',
        `${targets.faulty.url}${PREFIX}`,
        '--destructive',
      ]);
      expect(code).toBe(1);
      const opened = await read(html);
      expect(opened.verdict).toBe('FAILED at level spec');
      expect(opened.shown).toEqual(marksOfJson('suite', json));
      expect(opened.shown.stories.length).toBeGreaterThan(0);
      expect(quiet(opened)).toEqual([[], []]);
      await opened.page.close();
    },
    TIMEOUT,
  );

  it(
    'explore, failed: the clauses, the story step by step, the diverging step and the first difference',
    async () => {
      const { code, json, html } = await run('explore', [
        'explore',
        '--base-url',
        `${targets.faulty.url}${PREFIX}`,
        '--destructive',
        '--seed',
        '1',
        '--budget',
        '30s',
      ]);
      expect(code).toBe(1);
      const { story } = json;
      expect(story.difference).toBeDefined();
      const opened = await read(html);
      const { page } = opened;
      expect(opened.verdict).toBe('DIVERGED');
      expect(opened.shown).toEqual(marksOfJson('explore', json));
      expect(opened.shown.clauses.filter(([, verdict]) => verdict === 'failed')).toEqual([
        [story.clause, 'failed'],
      ]);
      // As a reader finds them: the one step marked, what the client sent there, its difference.
      const marked = page.locator('li[data-diverged]');
      expect(await marked.count()).toBe(1);
      expect(await marked.locator('.side[data-side="client"]').textContent()).toBe(
        story.steps[story.divergedAt ?? story.steps.length - 1].request,
      );
      const difference = marked.locator('[data-first-difference]');
      expect(await difference.getAttribute('data-first-difference')).toBe(story.difference.pointer);
      expect(await difference.textContent()).toContain(
        `First difference at ${story.difference.pointer || 'the whole value'}`,
      );
      expect(quiet(opened)).toEqual([[], []]);
      await mkdir(join(ROOT, 'screenshots'), { recursive: true });
      const shot = join(ROOT, 'screenshots', 'report-explore.png');
      await marked.scrollIntoViewIfNeeded();
      await page.screenshot({ path: shot });
      if (process.env.UPDATE_SCREENSHOTS === '1')
        await copyFile(shot, join(ROOT, 'docs', 'images', 'report-explore.png'));
      // At 360 px nothing runs off the side; in dark mode the page is dark.
      await page.setViewportSize({ width: 360, height: 800 });
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
        360,
      );
      await page.emulateMedia({ colorScheme: 'dark' });
      expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe(
        'rgb(13, 17, 23)',
      );
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
        `${targets.faulty.url}${PREFIX}`,
        '--destructive',
      ]);
      expect(code).toBe(1);
      const opened = await read(html);
      expect(opened.verdict).toBe('FAILED');
      expect(opened.shown).toEqual(marksOfJson('replay', json));
      expect(opened.shown.stories).toHaveLength(1);
      expect(quiet(opened)).toEqual([[], []]);
      await opened.page.close();
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
          `${targets.miscounting.url}${PREFIX}`,
          '--out',
          state,
        ],
        { cwd: ROOT, env: { ...process.env, ...REPORT_ENV } },
      );
      expect(snapshot.stdout).toMatch(/^Snapshot of /m);
      const { code, json, html } = await run('diff', [
        'diff',
        '--base-url',
        `${targets.miscounting.url}${PREFIX}`,
        '--snapshot',
        state,
      ]);
      expect(code).toBe(1);
      const opened = await read(html);
      expect(opened.verdict).toBe('FAILED: new differences at --fail-on spec');
      expect(opened.shown).toEqual(marksOfJson('diff', json));
      expect(opened.shown.clauses).toContainEqual(['COLL-2', 'failed']);
      expect(quiet(opened)).toEqual([[], []]);
      await opened.page.close();
    },
    TIMEOUT,
  );
});
