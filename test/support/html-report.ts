/**
 * An HTML report (`--html`, src/contract/html/) against the same run's `--json`: what the page
 * must show, worked out from the JSON by the rules each command's report states, and what a page
 * shows, read from its text. The engine tier reads the text (test/contract/html-report), the
 * install tier the DOM in Chromium (test/e2e/html-reports); both compare with `marksOfJson`.
 * Also what both run the commands against: the mocks, the keys and a consumer test's recording.
 */
import type { CoveredExploreReport } from '../../src/contract/explore/story.ts';
import type { DiffReport } from '../../src/contract/diff/report.ts';
import type { ReplayReport } from '../../src/contract/replay/outcome.ts';
import type { ContractReport } from '../../src/contract/runner.ts';
import { assemble } from '../../src/assemble.ts';
import { recordingMock } from '../../src/core/recorder.ts';
import { withFault, type FaultName } from '../../src/faults/index.ts';
import { createMock, DEV_KEYS } from '../../src/index.ts';
import { startServer, type RunningServer } from '../../src/node/server.ts';
import { KEYS } from './keys.ts';

/** A story as a page marks it: its clause, its steps (what the client sent), the one that diverged. */
interface StoryMarks {
  clause: string;
  steps: string[];
  /** The step (0-based) marked as the one that diverged; -1 when none is (no steps). */
  diverged: number;
  /** The JSON pointer of its first difference, when it has one. */
  firstDifference: string | undefined;
}

/** What a page shows that its `--json` holds too. */
export interface ReportMarks {
  passed: boolean;
  /** Each row of the clause table, in order: its clause (or difference's clause) and verdict. */
  clauses: Array<[string, string]>;
  stories: StoryMarks[];
  /** How many waits the target asked for; undefined when the report counts none. */
  pushback: number | undefined;
  /** How many things the run left behind (0 for a command that only reads). */
  leftBehind: number;
  /** The requests the run sent, as the facts give them first (to the target, for diff). */
  requests: string;
}

export type ReportCommand = 'suite' | 'explore' | 'replay' | 'diff';

const byId = (ids: Iterable<string>) => [...new Set(ids)].sort((a, b) => a.localeCompare(b));

/** A story of the JSON's steps: the step that diverged is the one named, else the last. */
function storyMarks(
  clause: string,
  steps: Array<{ request: string }>,
  divergedAt: number | undefined,
  difference: { pointer: string } | undefined,
): StoryMarks {
  return {
    clause,
    steps: steps.map((step) => step.request),
    diverged: steps.length === 0 ? -1 : (divergedAt ?? steps.length - 1),
    firstDifference: difference?.pointer,
  };
}

/** A row's verdict from an outcome of the suite's matrix. */
const SUITE_VERDICT: Record<ContractReport['matrix'][number]['outcome'], string> = {
  pass: 'passed',
  fail: 'failed',
  skip: 'not judged',
  'not testable': 'not judged',
  'not run': 'not judged',
};

function suiteMarks(report: ContractReport): ReportMarks {
  return {
    passed: report.verdict === 'passed',
    // The matrix, row by row.
    clauses: report.matrix.map((clause) => [clause.id, SUITE_VERDICT[clause.outcome]]),
    // Each failed check, by the clause it broke: no steps, its first difference alone.
    stories: report.results
      .filter((result) => result.outcome === 'fail')
      .map((result) =>
        storyMarks(result.broken ?? result.clauses.join(', '), [], undefined, result.difference),
      ),
    pushback: report.pushback.waits,
    leftBehind: report.leftBehind.length,
    requests: String(report.requests),
  };
}

function exploreMarks(report: CoveredExploreReport): ReportMarks {
  const { story, coverage, clauseCoverage } = report;
  // Every clause the report names: within reach, out of it (with why), met (judged or not).
  const ids = byId([
    ...clauseCoverage.reachable,
    ...Object.keys(clauseCoverage.notJudged ?? {}),
    ...Object.keys(coverage.clauses),
    ...Object.keys(coverage.reached ?? {}),
    ...(story ? [story.clause] : []),
  ]);
  return {
    passed: !story && !report.interrupted && report.leftBehind.length === 0,
    // Failed: the story's; passed: judged where it could have failed; else not judged.
    clauses: ids.map((id) => [
      id,
      id === story?.clause ? 'failed' : (coverage.clauses[id] ?? 0) > 0 ? 'passed' : 'not judged',
    ]),
    stories: story
      ? [storyMarks(story.clause, story.steps, story.divergedAt, story.difference)]
      : [],
    pushback: report.pushback?.waits,
    leftBehind: report.leftBehind.length,
    requests: String(report.requests),
  };
}

function replayMarks(report: ReplayReport): ReportMarks {
  const diverged = report.sequences.flatMap((s) => (s.divergence ? [s.divergence] : []));
  const failed = new Set(diverged.map((divergence) => divergence.clause));
  const ids = byId([
    ...Object.keys(report.coverage.clauses),
    ...Object.keys(report.coverage.notJudged),
    ...failed,
  ]);
  return {
    passed: report.passed,
    // Failed: a consumer test diverged on it; passed: judged in an exchange; else not judged.
    clauses: ids.map((id) => [
      id,
      failed.has(id) ? 'failed' : (report.coverage.clauses[id] ?? 0) > 0 ? 'passed' : 'not judged',
    ]),
    // Each consumer test that diverged, in the order replayed.
    stories: diverged.map((d) => storyMarks(d.clause, d.steps, d.divergedAt, d.difference)),
    pushback: report.pushback.waits,
    leftBehind: report.leftBehind.length,
    requests: String(report.sentToTarget),
  };
}

function diffMarks(report: DiffReport): ReportMarks {
  return {
    passed: report.verdict === 'no new differences',
    // A row per difference: failed when new and of a class that counts at --fail-on.
    clauses: report.differences.map((d) => [
      d.clause,
      d.new && (report.failOn === 'profile' || d.class !== 'profile') ? 'failed' : 'noted',
    ]),
    // A story per difference: the one request, sent to both, unless the description declared it.
    stories: report.differences.map((d) =>
      storyMarks(d.clause, d.request ? [{ request: d.request }] : [], undefined, d.difference),
    ),
    pushback: undefined,
    leftBehind: 0,
    requests: String(report.requests.deployment),
  };
}

/** What the page of `command`'s run must show, from the run's `--json` (as parsed). */
export function marksOfJson(command: ReportCommand, json: unknown): ReportMarks {
  switch (command) {
    case 'suite':
      return suiteMarks(json as ContractReport);
    case 'explore':
      return exploreMarks(json as CoveredExploreReport);
    case 'replay':
      return replayMarks(json as ReplayReport);
    case 'diff':
      return diffMarks(json as DiffReport);
  }
}

/** Text of the page, as the browser shows it: the references the page writes, resolved. */
const unescape = (html: string) =>
  html
    .replace(/&#(\d+);/g, (_, code: string) => String.fromCodePoint(Number(code)))
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&');

const first = (html: string, pattern: RegExp) => {
  const found = pattern.exec(html)?.[1];
  return found === undefined ? undefined : unescape(found);
};

/** What a page shows, read from its text (the page writes every mark as page.ts does). */
export function marksOfPage(html: string): ReportMarks & { verdict: string | undefined } {
  const stories = [...html.matchAll(/<details data-story="\d+"([^>]*)>([\s\S]*?)<\/details>/g)];
  return {
    verdict: first(html, /<p class="verdict" data-verdict="([^"]*)"/),
    passed: first(html, /<p class="verdict"[^>]* data-passed="([^"]*)"/) === 'true',
    clauses: [...html.matchAll(/<tr data-clause="([^"]*)" data-verdict="([^"]*)"/g)].map(
      ([, id, verdict]) => [unescape(id!), verdict!],
    ),
    stories: stories.map(([, attributes, body]) => {
      const steps = [...body!.matchAll(/<li data-step="\d+"( data-diverged)?>([\s\S]*?)<\/li>/g)];
      return {
        clause: first(attributes!, /data-clause="([^"]*)"/) ?? '',
        steps: steps.map(([, , step]) => first(step!, /data-side="client">([^<]*)</) ?? ''),
        diverged: steps.findIndex(([, mark]) => mark !== undefined),
        firstDifference: first(body!, /data-first-difference="([^"]*)"/),
      };
    }),
    pushback: html.includes('data-pushback=')
      ? Number(first(html, /data-pushback="(\d+)"/))
      : undefined,
    leftBehind: Number(first(html, /data-left-behind="(\d+)"/)),
    requests: first(html, /<dd data-fact="requests">(\d+)/) ?? '',
  };
}

/** Elements HTML writes without an end tag. */
const VOID = new Set(['meta', 'br', 'hr', 'img', 'input', 'link', 'wbr']);

/**
 * The elements of a page that are not closed, or closed out of order (none when it nests as
 * written): the page escapes every text, so every `<` is a tag's.
 */
export function unbalancedTags(html: string): string[] {
  const open: string[] = [];
  const wrong: string[] = [];
  for (const [, end, name] of html.matchAll(/<(\/?)([a-zA-Z][a-zA-Z0-9]*)\b[^>]*>/g)) {
    const tag = name!.toLowerCase();
    if (VOID.has(tag)) continue;
    if (!end) open.push(tag);
    else if (open.at(-1) === tag) open.pop();
    else wrong.push(`</${tag}> where <${open.at(-1) ?? 'nothing'}> is open`);
  }
  return [...wrong, ...open.map((tag) => `<${tag}> never closed`)];
}

/**
 * A recording of one consumer test, made against the correct mock (what `answers-record` writes):
 * an object with nested content created, then read back; what a mock that drops it breaks.
 */
export async function consumerRecording(): Promise<string> {
  const recorder = recordingMock(
    await createMock(),
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
      path: `/api/answers/v1${path}`,
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
  return JSON.stringify(recorder.recording());
}

/** The dev keys of the default seed, where the commands read them: the environment. */
export const REPORT_ENV = {
  ANSWERS_API_KEY: KEYS.full,
  ANSWERS_READONLY_KEY: KEYS.readonly,
  ANSWERS_OTHER_ACCOUNT_KEY: KEYS.globex,
  ANSWERS_INACTIVE_KEY: KEYS.inactive,
};

/**
 * The mocks the reports are made against, on loopback: `faulty` drops a nested field of an
 * object's content (a defect the suite, explore and replay all meet); `miscounting` counts a
 * collection's objects wrong (what `diff` finds).
 */
export async function startReportTargets(): Promise<{
  faulty: RunningServer;
  miscounting: RunningServer;
  close(): Promise<void>;
}> {
  const serve = async (fault: FaultName) =>
    startServer({ mock: (await assemble({}, withFault(fault))).mock, port: 0, quiet: true });
  const faulty = await serve('object-nested-content-dropped');
  const miscounting = await serve('counts-wrong');
  return {
    faulty,
    miscounting,
    close: async () => void (await Promise.all([faulty.close(), miscounting.close()])),
  };
}
