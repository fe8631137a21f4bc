/**
 * `--html` beside `--json` (issue 50): each command run as a CI owner runs it (the bundled bin,
 * over HTTP) with both, against a mock with a deliberate defect (for `diff`, counts that are
 * wrong), and the page read back from its text: it nests as written and fetches nothing; its
 * verdict, clause rows, stories, their steps, the step that diverged and its first difference,
 * pushback, what was left and the requests are exactly what the same run's `--json` holds
 * (test/support/html-report.ts). Against a target that quotes every key it is presented, no key
 * is in a page. In Chromium: test/e2e/html-reports.e2e.test.ts.
 */
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMock } from '../../src/index.ts';
import { startServer, type RunningServer } from '../../src/node/server.ts';
import { contract } from '../support/contract-cli.ts';
import {
  consumerRecording,
  marksOfJson,
  marksOfPage,
  REPORT_ENV,
  startReportTargets,
  unbalancedTags,
  type ReportCommand,
} from '../support/html-report.ts';
import { startProxy, type RunningProxy } from '../support/proxy.ts';
import { scratchDir } from '../support/scratch.ts';

const PREFIX = '/api/answers/v1';
const CSP = `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">`;

let dir: string;
let targets: Awaited<ReturnType<typeof startReportTargets>>;
let correct: RunningServer;
/** In front of the correct mock: every write answered 500, every refusal, quoting the key. */
let echoing: RunningProxy;

/** One command run with `--json` and `--html` in files named after it; both read back. */
async function run(name: string, args: string[]) {
  const json = join(dir, `${name}.json`);
  const html = join(dir, `${name}.html`);
  const result = await contract([...args, '--json', json, '--html', html], REPORT_ENV);
  return {
    ...result,
    json: JSON.parse(await readFile(json, 'utf8')) as Record<string, unknown>,
    html: await readFile(html, 'utf8'),
  };
}

/**
 * The page of `command`'s run holds to its `--json`: one self-contained page that nests as
 * written, and shows what the JSON holds. Its verdict, as shown.
 */
function expectSameRun(command: ReportCommand, json: unknown, html: string): string | undefined {
  expect(unbalancedTags(html)).toEqual([]);
  expect(html.startsWith('<!doctype html>')).toBe(true);
  expect(html).toContain(CSP);
  // Nothing to fetch or run: no script, no element that loads, no attribute or style with a URL.
  expect(html).not.toMatch(/<(script|img|iframe|link|object|embed)\b|\s(src|href|action)=|url\(/i);
  const { verdict, ...shown } = marksOfPage(html);
  expect(shown).toEqual(marksOfJson(command, json));
  return verdict;
}

beforeAll(async () => {
  dir = await scratchDir('html-report-');
  targets = await startReportTargets();
  correct = await startServer({ mock: await createMock(), port: 0, quiet: true });
  const quoted = (headers: Record<string, unknown>) => {
    const presented = String(headers.authorization ?? headers['x-answers-api-key'] ?? '-');
    // @note First, so that an answer shortened in a story still shows it.
    return { echo: `you sent ${presented}`, key: presented.replace(/^bearer\s+/i, '') };
  };
  echoing = await startProxy(correct.url, {
    before: (request) =>
      request.method === 'GET'
        ? undefined
        : { status: 500, body: JSON.stringify(quoted(request.headers)) },
    after: (request, status, json) =>
      status >= 400 ? { ...quoted(request.headers), ...(json as object) } : json,
  });
  await writeFile(join(dir, 'bills.recording.json'), await consumerRecording());
}, 30_000);
afterAll(async () => {
  await echoing?.close();
  await Promise.all([targets?.close(), correct?.close()]);
  await rm(dir, { recursive: true, force: true });
});

describe('each command’s --html shows what its --json holds', () => {
  it('the suite, failed: its clause matrix, each failed check and its first difference', async () => {
    const { code, stderr, json, html } = await run('suite', [
      ...['--base-url', `${targets.faulty.url}${PREFIX}`, '--destructive'],
    ]);
    expect(code, stderr).toBe(1);
    expect(expectSameRun('suite', json, html)).toBe('FAILED at level spec');
    const { clauses, stories } = marksOfPage(html);
    expect(clauses.filter(([, verdict]) => verdict === 'failed').length).toBeGreaterThan(0);
    expect(stories.length).toBeGreaterThan(0);
    expect(stories.some((story) => story.firstDifference !== undefined)).toBe(true);
  }, 90_000);

  it('the suite against the bundled mock (--mock), passed: every clause, no story', async () => {
    const { code, stderr, json, html } = await run('suite-mock', ['--mock']);
    expect(code, stderr).toBe(0);
    expect(expectSameRun('suite', json, html)).toBe('PASSED at level spec');
    expect(marksOfPage(html)).toMatchObject({ passed: true, stories: [], leftBehind: 0 });
    expect(html).not.toContain('<h2>What failed');
  }, 90_000);

  it('explore, failed: the story step by step, the step that diverged and its first difference', async () => {
    const { code, stderr, json, html } = await run('explore', [
      ...['explore', '--base-url', `${targets.faulty.url}${PREFIX}`, '--destructive'],
      ...['--seed', '1', '--budget', '30s'],
    ]);
    expect(code, stderr).toBe(1);
    expect(expectSameRun('explore', json, html)).toBe('DIVERGED');
    const [story] = marksOfPage(html).stories;
    expect(story!.steps.length).toBeGreaterThan(0);
    expect(story!.firstDifference).toBeDefined();
    // The clause table's failed row is the story's; the coverage as the run measured it.
    expect(marksOfPage(html).clauses.filter(([, v]) => v === 'failed')).toEqual([
      [story!.clause, 'failed'],
    ]);
    const { clauseCoverage } = json as { clauseCoverage: { reached: []; reachable: [] } };
    expect(html).toContain(
      `<dd data-fact="coverage">${clauseCoverage.reached.length} of ${clauseCoverage.reachable.length} clauses`,
    );
  }, 90_000);

  it('replay, failed: the consumer test that diverged, with what it saw and the target answered', async () => {
    const { code, stderr, json, html } = await run('replay', [
      ...['replay', join(dir, 'bills.recording.json')],
      ...['--base-url', `${targets.faulty.url}${PREFIX}`, '--destructive'],
    ]);
    expect(code, stderr).toBe(1);
    expect(expectSameRun('replay', json, html)).toBe('FAILED');
    const { stories } = marksOfPage(html);
    expect(stories).toHaveLength(1);
    // Named by the consumer test, its `>` written as text.
    expect(html).toContain(
      `<summary>${stories[0]!.clause}: bills &#62; keeps a nested total</summary>`,
    );
  }, 90_000);

  it('diff, failed: a row and a story per difference, failed where it fails the run', async () => {
    const state = join(dir, 'state.json');
    const snapped = await contract(
      ['snapshot', '--base-url', `${targets.miscounting.url}${PREFIX}`, '--out', state],
      REPORT_ENV,
    );
    expect(snapped.code, snapped.stderr).toBe(0);
    const { code, stderr, json, html } = await run('diff', [
      ...['diff', '--base-url', `${targets.miscounting.url}${PREFIX}`, '--snapshot', state],
    ]);
    expect(code, stderr).toBe(1);
    expect(expectSameRun('diff', json, html)).toBe('FAILED: new differences at --fail-on spec');
    expect(marksOfPage(html).clauses).toContainEqual(['COLL-2', 'failed']);
    expect(html).toContain('<p data-left-behind="0">Nothing: this command only reads.</p>');
  }, 90_000);

  it.each([
    { name: 'the suite', args: [] },
    { name: 'explore', args: ['explore'] },
    { name: 'replay', args: ['replay'] },
    { name: 'diff', args: ['diff'] },
  ])('$name: --help lists --html <file>', async ({ args }) => {
    const { code, stdout } = await contract([...args, '--help']);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^ {2}--html <file> +writes? the report as one self-contained HTML/m);
  });
});

describe('against a target that quotes every key it is presented', () => {
  /** The keys the runs are given (letters and `_`: no escape writes them otherwise). */
  const GIVEN = Object.values(REPORT_ENV);

  it.each<{ command: ReportCommand; args: () => string[]; exit: number; verdict: string }>([
    {
      // Its test data could not be made: nothing judged, and why (the target's answer).
      command: 'suite',
      args: () => ['--base-url', `${echoing.url}${PREFIX}`, '--destructive'],
      exit: 2,
      verdict: 'NOTHING JUDGED at level spec',
    },
    {
      command: 'explore',
      args: () => [
        ...['explore', '--base-url', `${echoing.url}${PREFIX}`, '--destructive'],
        ...['--seed', '1', '--budget', '10s'],
      ],
      exit: 1,
      verdict: 'DIVERGED',
    },
    {
      command: 'replay',
      args: () => [
        ...['replay', join(dir, 'bills.recording.json')],
        ...['--base-url', `${echoing.url}${PREFIX}`, '--destructive'],
      ],
      exit: 1,
      verdict: 'FAILED',
    },
  ])(
    '$command: no key in the page; what the target quoted, shown redacted',
    async ({ command, args, exit, verdict }) => {
      const { code, stderr, json, html } = await run(`echo-${command}`, args());
      expect(code, stderr).toBe(exit);
      expect(expectSameRun(command, json, html)).toBe(verdict);
      for (const key of GIVEN) expect(html).not.toContain(key);
      expect(html).toContain('you sent Bearer [redacted api-key]');
    },
    90_000,
  );
});
