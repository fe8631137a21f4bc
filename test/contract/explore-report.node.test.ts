/**
 * What `answers-contract explore` reports besides its story: the share of the clauses within the
 * target's reach that the run reached (`--min-coverage` gates on it), and a JUnit XML report
 * (`--junit`) that says what the printed report says.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SaxesParser } from 'saxes';
import { afterAll, afterEach, beforeAll, beforeEach, expect, it, vi } from 'vitest';
import { startExploreModel } from '../../src/bin/mock-target.ts';
import { UsageError } from '../../src/contract/cli-options.ts';
import { exploreCommand } from '../../src/contract/explore/command.ts';
import {
  clauseCoverage,
  EXPLORE_CLAUSES,
  type ClauseCoverage,
} from '../../src/contract/explore/coverage.ts';
import type { ExploreReport } from '../../src/contract/explore/explore.ts';
import {
  exploreJUnit,
  formatExplore,
  type CoveredExploreReport,
} from '../../src/contract/explore/story.ts';
import { OPERATION_NAMES, type OperationName } from '../../src/contract/target-api/description.ts';
import { createMock } from '../../src/index.ts';
import { startServer, type RunningServer } from '../../src/node/server.ts';
import { emptyState } from '../../src/seed/empty-state.ts';

/** Every clause of the table; those a spec-level run judges (our document's GAP-* are profile only). */
const TABLE = (Object.keys(EXPLORE_CLAUSES) as Array<keyof typeof EXPLORE_CLAUSES>).sort();
const ALL = TABLE.filter((clause) => !clause.startsWith('GAP-'));
/** The clauses in the order the report names them. */
const byName = (clauses: string[]) => [...clauses].sort((a, b) => a.localeCompare(b));
/** The share of `of` clauses that `reached` is, as the report prints it: rounded down. */
const percentOf = (reached: number, of: number) => `${Math.floor((reached * 100) / of)}%`;
const COMMAND = 'npx --no -- answers-contract explore --destructive --base-url http://t.example';

/** Reached once each. */
const once = (...clauses: string[]) => Object.fromEntries(clauses.map((clause) => [clause, 1]));
const offering =
  (...missing: OperationName[]) =>
  (op: OperationName) =>
    !missing.includes(op);
/** The clauses of the table within reach of a target that lacks the `missing` operations. */
const reachableWithout = (...missing: OperationName[]) =>
  ALL.filter((clause) => EXPLORE_CLAUSES[clause]!.every(offering(...missing)));

it.each<{
  name: string;
  reached: Record<string, number>;
  offers: (op: OperationName) => boolean;
  want: ClauseCoverage;
  /** Clauses that must be out of reach (those `want` leaves out of `reachable`, named). */
  outOfReach?: string[];
  level?: 'spec' | 'profile';
}>([
  {
    name: 'every operation offered, every clause reached',
    reached: once(...ALL),
    offers: offering(),
    want: { reached: ALL, reachable: ALL, percent: 100 },
  },
  {
    name: 'every operation offered, two clauses reached (a count of 0 is not reached)',
    reached: { ...once('COLL-1', 'OBJ-1'), 'DEL-1': 0 },
    offers: offering(),
    want: { reached: ['COLL-1', 'OBJ-1'], reachable: ALL, percent: 200 / ALL.length },
  },
  {
    name: 'no search: SEARCH-1 is out of reach',
    reached: once('SEARCH-1', 'COLL-1'),
    offers: offering('search'),
    want: {
      reached: ['COLL-1'],
      reachable: reachableWithout('search'),
      percent: 100 / reachableWithout('search').length,
    },
    outOfReach: ['SEARCH-1'],
  },
  {
    name: 'no getCollection: COLL-GET-1, COLL-2 and COLL-3 are out of reach',
    reached: once('COLL-1'),
    offers: offering('getCollection'),
    want: {
      reached: ['COLL-1'],
      reachable: reachableWithout('getCollection'),
      percent: 100 / reachableWithout('getCollection').length,
    },
    outOfReach: ['COLL-GET-1', 'COLL-2', 'COLL-3'],
  },
  {
    name: 'a clause the table does not name is left out',
    reached: once('COLL-1', 'NEW-9'),
    offers: offering(),
    want: { reached: ['COLL-1'], reachable: ALL, percent: 100 / ALL.length },
  },
  {
    name: 'at --level profile our document’s decisions (GAP-*) are within reach too',
    reached: once(...TABLE),
    offers: offering(),
    level: 'profile',
    want: { reached: TABLE, reachable: TABLE, percent: 100 },
  },
  {
    name: 'at the spec level a GAP-* clause reached is not weighed',
    reached: once('COLL-1', 'GAP-MEDIA'),
    offers: offering(),
    want: { reached: ['COLL-1'], reachable: ALL, percent: 100 / ALL.length },
  },
  {
    // Nothing within reach is 0 %, not 100 %: a run that could judge nothing proved nothing.
    name: 'no operation offered: nothing within reach is 0 %',
    reached: once('COLL-1'),
    offers: () => false,
    want: { reached: [], reachable: [], percent: 0 },
  },
])('clauseCoverage: $name', ({ reached, offers, want, outOfReach = [], level }) => {
  const got = clauseCoverage(reached, offers, level);
  for (const clause of outOfReach) expect(got.reachable).not.toContain(clause);
  expect({ ...got, reached: got.reached.sort(), reachable: got.reachable.sort() }).toEqual({
    ...want,
    reached: [...want.reached].sort(),
    reachable: [...want.reachable].sort(),
  });
});

it('names in its table every clause a run of explore judges, and only operations', async () => {
  const { explore } = await import('../../src/contract/explore/explore.ts');
  const { startMockTarget } = await import('../../src/bin/mock-target.ts');
  const target = await startMockTarget();
  try {
    // @note Both levels: our document's decisions are judged at --level profile only.
    for (const level of ['spec', 'profile'] as const) {
      const report = await explore({
        baseUrl: target.baseUrl,
        keys: { ...target.keys, full: target.keys.full! },
        startModel: startExploreModel,
        seed: 1,
        lanes: 1,
        level,
        maxRequests: 1_500,
      });
      const judged = Object.keys(report.coverage.clauses);
      expect(judged.length).toBeGreaterThan(10);
      expect(judged.filter((clause) => !TABLE.includes(clause as never))).toEqual([]);
    }
  } finally {
    await target.stop();
  }
  for (const operations of Object.values(EXPLORE_CLAUSES))
    for (const op of operations) expect(OPERATION_NAMES).toContain(op);
}, 60_000);

/** A report as `explore` returns it, with coverage; a story when `story` is given. */
function reportOf(
  reached: Record<string, number>,
  story?: ExploreReport['story'],
): CoveredExploreReport {
  return {
    seed: 42,
    runId: 'mihf0000abcd',
    sequences: 7,
    requests: 90,
    elapsedMs: 1234,
    story,
    coverage: {
      operations: { createCollection: 3, getCollection: 2 },
      clauses: reached,
      statuses: { '200': 4, '201': 3 },
    },
    leftBehind: [],
    clauseCoverage: clauseCoverage(reached, () => true),
  };
}

const NASTY = 'a <b> & "c" \u0001\u001f\uFFFE end';
/** NASTY as a strict parser reads it back: each character XML 1.0 forbids became U+FFFD. */
const NASTY_READ = 'a <b> & "c" \uFFFD\uFFFD\uFFFD end';

const STORY: NonNullable<ExploreReport['story']> = {
  clause: 'COLL-2',
  message: `object count: the model has 1, the target ${NASTY}`,
  steps: [
    { request: 'create collection x (key full)', model: '201', target: '201 {"id":"c1"}' },
    { request: 'get collection #1 (key full)', model: '200', target: `200 ${NASTY}` },
  ],
  seed: 42,
  path: '3:1:0',
};

interface XmlElement {
  name: string;
  attributes: Record<string, string>;
  text: string;
  children: XmlElement[];
}

/** Parses `xml` with a strict XML 1.0 parser; its root element. */
function parseXml(xml: string): XmlElement {
  const parser = new SaxesParser();
  const root: XmlElement = { name: '', attributes: {}, text: '', children: [] };
  const open: XmlElement[] = [root];
  parser.on('error', (error) => {
    throw error;
  });
  parser.on('opentag', (tag) => {
    const element: XmlElement = {
      name: tag.name,
      attributes: tag.attributes as Record<string, string>,
      text: '',
      children: [],
    };
    open.at(-1)!.children.push(element);
    open.push(element);
  });
  parser.on('text', (text) => {
    open.at(-1)!.text += text;
  });
  parser.on('closetag', () => {
    open.pop();
  });
  parser.write(xml).close();
  return root.children[0]!;
}

/** The test cases of a JUnit report: name, and the failure if any. */
function testcases(xml: string) {
  const suite = parseXml(xml).children.find((e) => e.name === 'testsuite')!;
  return suite.children
    .filter((e) => e.name === 'testcase')
    .map((e) => ({
      name: e.attributes.name!,
      classname: e.attributes.classname!,
      failure: e.children.find((c) => c.name === 'failure'),
    }));
}

/**
 * The clauses the next reports leave unreached: the last of the table, two at least and as few as
 * make the share reached end in .5 or more, so that a share rounded to the nearest would print one
 * more than the share rounded down (no count does when the table's size divides 100: then two).
 */
const UNREACHED = ALL.slice(
  -(
    ALL.map((_, k) => k)
      .slice(2)
      .find((k) => (((ALL.length - k) * 100) / ALL.length) % 1 >= 0.5) ?? 2
  ),
);
const MOSTLY = ALL.filter((c) => !UNREACHED.includes(c));

it('prints the coverage of the clauses within reach, below the lines of what was reached', () => {
  const text = formatExplore(reportOf(once(...MOSTLY)), COMMAND);
  expect(text).toContain('Reached: operations createCollection 3, getCollection 2\n');
  expect(text).toContain('\n         statuses 200 4, 201 3\n');
  expect(text.split('\n').at(-1)).toBe(
    `Coverage: ${MOSTLY.length} of ${ALL.length} clauses (${percentOf(MOSTLY.length, ALL.length)}); not reached: ${byName(UNREACHED).join(', ')}`,
  );
});

it('prints last that the coverage is too low, rounded down, when --min-coverage is not met', () => {
  const report = reportOf(once(...MOSTLY));
  const floor = Math.floor((MOSTLY.length * 100) / ALL.length);
  expect(
    formatExplore(report, COMMAND, floor + 1)
      .split('\n')
      .at(-1),
  ).toBe(`COVERAGE TOO LOW: ${floor}% of clauses reached, --min-coverage ${floor + 1}`);
  expect(formatExplore(report, COMMAND, floor)).not.toContain('COVERAGE TOO LOW');
});

it('writes a passing test case per clause reached and a passing coverage case when the run agreed', () => {
  const xml = exploreJUnit(reportOf(once('COLL-1', 'OBJ-1')), COMMAND);
  const root = parseXml(xml);
  expect(root.name).toBe('testsuites');
  const suite = root.children.find((e) => e.name === 'testsuite')!;
  expect(suite.attributes).toMatchObject({
    name: 'answers-contract explore',
    tests: '3',
    failures: '0',
  });
  const properties = suite.children.find((e) => e.name === 'properties')!.children;
  expect(
    Object.fromEntries(properties.map((p) => [p.attributes.name, p.attributes.value])),
  ).toEqual({
    seed: '42',
    sequences: '7',
    requests: '90',
    'clause-coverage': percentOf(2, ALL.length),
  });
  expect(testcases(xml)).toEqual([
    { name: 'COLL-1', classname: 'explore', failure: undefined },
    { name: 'OBJ-1', classname: 'explore', failure: undefined },
    { name: 'coverage', classname: 'explore', failure: undefined },
  ]);
});

it('fails the story’s test case with the printed story, its steps and its replay command', () => {
  const report = reportOf(once('COLL-1', 'COLL-2'), STORY);
  const xml = exploreJUnit(report, COMMAND);
  const cases = testcases(xml);
  expect(cases.map((c) => [c.name, c.failure !== undefined])).toEqual([
    ['COLL-1', false],
    ['COLL-2', true],
    ['coverage', false],
  ]);
  const failure = cases[1]!.failure!;
  const readBack = (text: string) => text.replaceAll(NASTY, NASTY_READ);
  expect(failure.attributes.message).toBe(readBack(`COLL-2: ${STORY.message}`));
  expect(failure.text).toContain('1. create collection x (key full)');
  expect(failure.text).toContain(
    `2. get collection #1 (key full)\n   model:  200\n   target: 200 ${readBack(NASTY)}`,
  );
  expect(failure.text).toContain(
    `Replay exactly this sequence: ${COMMAND} --seed 42 --replay '3:1:0'`,
  );
  // The failure's text is the story as formatExplore prints it.
  const printed = formatExplore(report, COMMAND);
  expect(readBack(printed)).toContain(failure.text);
  // Markup is escaped, and no character XML 1.0 forbids is left in the file.
  expect(xml).toContain('a &#60;b&#62; &#38; &#34;c&#34;');
  // @note The forbidden characters, spelled as code points (not as a regular expression).
  const forbidden = [...xml].filter((c) => {
    const code = c.codePointAt(0)!;
    return (code < 0x20 && ![9, 10, 13].includes(code)) || code === 0xfffe || code === 0xffff;
  });
  expect(forbidden).toEqual([]);
  expect(parseXml(xml).children[0]!.attributes.failures).toBe('1');
});

it('fails a test case for the story’s clause even when the run never counted it', () => {
  const xml = exploreJUnit(reportOf(once('SEARCH-1'), { ...STORY, clause: 'ISO-1' }), COMMAND);
  expect(testcases(xml).map((c) => [c.name, c.failure?.attributes.message?.slice(0, 6)])).toEqual([
    ['ISO-1', 'ISO-1:'],
    ['SEARCH-1', undefined],
    ['coverage', undefined],
  ]);
});

it('fails the coverage test case when --min-coverage is not met', () => {
  const xml = exploreJUnit(reportOf(once('COLL-1', 'OBJ-1')), COMMAND, 50);
  const coverage = testcases(xml).find((c) => c.name === 'coverage')!;
  const percent = percentOf(2, ALL.length);
  expect(coverage.failure?.attributes.message).toBe(
    `COVERAGE TOO LOW: ${percent} of clauses reached, --min-coverage 50`,
  );
  expect(coverage.failure?.text).toMatch(
    new RegExp(`^Coverage: 2 of ${ALL.length} clauses \\(${percent}\\); not reached: `),
  );
  expect(parseXml(xml).children[0]!.attributes.failures).toBe('1');
});

const REFUSED_OPTIONS = [
  ...['abc', '101', '50%', ''].map((value) => ({
    option: '--min-coverage',
    value,
    says: `--min-coverage must be a percentage from 0 to 100, not ${value}`,
  })),
  ...['soon', '-1s'].map((value) => ({
    option: '--shrink-budget',
    value,
    says: `--shrink-budget must be a duration such as 30s or 2m, not ${value}`,
  })),
];

it.each(REFUSED_OPTIONS)(
  'refuses $option $value as a usage error',
  async ({ option, value, says }) => {
    const run = exploreCommand(
      [
        'node',
        'answers-contract',
        'explore',
        '--base-url',
        'http://127.0.0.1:9',
        '--api-key',
        'k',
      ].concat(['--destructive', option, value]),
      startExploreModel,
    );
    await expect(run).rejects.toThrow(UsageError);
    await expect(run).rejects.toThrow(says);
  },
);

let out: string[];
beforeEach(() => {
  out = [];
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
    out.push(String(chunk));
    return true;
  });
  for (const name of [
    'ANSWERS_READONLY_KEY',
    'ANSWERS_OTHER_ACCOUNT_KEY',
    'ANSWERS_INACTIVE_KEY',
    'ANSWERS_CONTRACT_TARGET',
  ])
    vi.stubEnv(name, undefined);
});
afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
});

it('lists --junit and --min-coverage in its help', async () => {
  await expect(
    exploreCommand(['node', 'answers-contract', 'explore', '--help'], startExploreModel),
  ).resolves.toBe(0);
  expect(out.join('')).toMatch(/--junit <file>/);
  expect(out.join('')).toMatch(/--min-coverage <percent>/);
});

let mockServer: RunningServer;
let folder: string;
beforeAll(async () => {
  mockServer = await startServer({
    mock: await createMock({ initialState: emptyState }),
    port: 0,
    quiet: true,
  });
  folder = await mkdtemp(join(tmpdir(), 'explore-report-'));
});
afterAll(async () => {
  await mockServer.close();
  await rm(folder, { recursive: true, force: true });
});

/**
 * `explore` against the kit's mock with the full key only: no inactive key, so no ERR-401-2, and
 * no other account's key, so no ISO-1.
 */
function exploreMock(...extra: string[]): Promise<number> {
  return exploreCommand(
    [
      'node',
      'answers-contract',
      'explore',
      '--base-url',
      `${mockServer.url}/api/answers/v1`,
      '--api-key',
      'answers_test_full_acme',
      '--destructive',
      '--seed',
      '1',
      '--budget',
      '2s',
      ...extra,
    ],
    startExploreModel,
  );
}

it('exits 1 and says the coverage is too low when --min-coverage is not met', async () => {
  const junit = join(folder, 'low.xml');
  const json = join(folder, 'low.json');
  await expect(
    exploreMock('--min-coverage', '100', '--junit', junit, '--json', json),
  ).resolves.toBe(1);
  const report = JSON.parse(await readFile(json, 'utf8')) as CoveredExploreReport;
  // The mock offers every operation: every clause of the table is within reach.
  expect([...report.clauseCoverage.reachable].sort()).toEqual(ALL);
  const reached = ALL.filter((c) => (report.coverage.clauses[c] ?? 0) > 0);
  expect([...report.clauseCoverage.reached].sort()).toEqual(reached);
  expect(reached).not.toContain('ERR-401-2');
  expect(reached).not.toContain('ISO-1');
  expect(report.clauseCoverage.percent).toBe((reached.length * 100) / ALL.length);
  const percent = percentOf(reached.length, ALL.length);
  const unreached = byName(ALL.filter((c) => !reached.includes(c)));
  const printed = out.join('');
  expect(printed).toMatch(/^AGREED: /);
  expect(printed).toContain(
    `\nCoverage: ${reached.length} of ${ALL.length} clauses (${percent}); not reached: ${unreached.join(', ')}\n`,
  );
  const tooLow = `COVERAGE TOO LOW: ${percent} of clauses reached, --min-coverage 100`;
  expect(printed.slice(-(tooLow.length + 2))).toBe(`\n${tooLow}\n`);
  const cases = testcases(await readFile(junit, 'utf8'));
  expect(cases.filter((c) => c.failure).map((c) => c.name)).toEqual(['coverage']);
  expect(cases.find((c) => c.name === 'coverage')!.failure!.attributes.message).toBe(tooLow);
  const names = cases.map((c) => c.name);
  expect(names.at(-1)).toBe('coverage');
  expect(names.slice(0, -1).sort()).toEqual(Object.keys(report.coverage.clauses).sort());
}, 20_000);

it('exits 0 when --min-coverage is met, and its JUnit report fails nothing', async () => {
  const junit = join(folder, 'met.xml');
  const code = await exploreMock('--min-coverage', '10', '--junit', junit);
  expect(code, out.join('').slice(-3000)).toBe(0);
  expect(out.join('')).not.toContain('COVERAGE TOO LOW');
  const xml = await readFile(junit, 'utf8');
  expect(parseXml(xml).children[0]!.attributes.failures).toBe('0');
  expect(testcases(xml).some((c) => c.name === 'COLL-1')).toBe(true);
}, 20_000);

it('a description that cannot ask for page 2: its walk clauses are "not judged", with why, and 100 % is reachable', async () => {
  const { unjudgeable, formatClauseCoverage } =
    await import('../../src/contract/explore/coverage.ts');
  const { DEFAULT_DESCRIPTION } = await import('../../src/contract/target-api/description.ts');
  expect(unjudgeable(DEFAULT_DESCRIPTION.paging)).toEqual({});
  const onePage = { ...DEFAULT_DESCRIPTION.paging, pageToken: undefined };
  const notJudged = unjudgeable(onePage);
  expect(Object.keys(notJudged).sort()).toEqual(['COLL-LIST-2', 'COLL-LIST-3']);
  const reachedAll = Object.fromEntries(
    clauseCoverage({}, () => true).reachable.map((clause) => [clause, 1]),
  );
  const coverage = clauseCoverage(reachedAll, () => true, 'spec', notJudged);
  expect(coverage.percent).toBe(100);
  expect(formatClauseCoverage(coverage)).toContain(
    'not judged (the target description gives no way to ask for page 2, so no walk is whole): COLL-LIST-2, COLL-LIST-3',
  );
});

// @note One JUnit writer for every command (src/contract/runner/junit.ts): before, explore's
// report named what a run left behind only as a property, and CI showed the job green.
it("fails a JUnit test case for data the run left behind, as the suite's and replay's do", () => {
  const xml = exploreJUnit(
    { ...reportOf(once('COLL-1')), leftBehind: ['c9 (still listed)'] },
    COMMAND,
  );
  const cleanUp = testcases(xml).find((each) => each.name === 'clean-up');
  expect(cleanUp?.failure?.attributes.message).toBe('left behind: c9 (still listed)');
  expect(parseXml(xml).attributes.failures).toBe('1');
});
