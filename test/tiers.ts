/**
 * The test tiers: which tier each folder of tests is in, and why. The one list that
 * vitest.config.ts builds its projects from, that test/README.md shows as a table and that
 * test/code/tiers.node.test.ts holds every test file to.
 *
 * A tier is named by what it can find, so that each runs where its result can differ
 * (.ci/run): `fast` and `engine` on Node 20, and of them on Node 22 and 24 only what a Node line
 * can change (NODE_LINE), `deep` once, `install` once per msw major.
 * A folder covers the test files directly in it, not those of its subfolders: a subfolder is
 * listed on its own, so that moving a file into a folder moves it into that folder's tier.
 */

export const TIERS = ['fast', 'engine', 'deep', 'install'] as const;
export type Tier = (typeof TIERS)[number];

/** What each tier is for, as test/README.md says it. */
export const TIER_PURPOSE: Record<Tier, string> = {
  fast: 'units, API behaviour, data, code and docs checks: in process, no subprocess, no install',
  engine:
    'over real sockets, files and processes: node:http adapters, the CLIs, the state file, signals, security and concurrency, regressions',
  deep: 'long searches over seeds and variants: one seed per variant, every seed with DEEP=full',
  install:
    'what installs from the registry or a tarball, builds, or drives Chromium: what the msw major changes once per major, the rest once',
};

export interface TestFolder {
  /** From the repository root, without a trailing slash. */
  folder: string;
  tier: Tier;
  why: string;
  /**
   * What it installs changes with the msw major of the app (an install tier folder): its files
   * are the project `install-msw`, which .ci/run runs once per msw major; the rest of the tier
   * runs once.
   */
  perMswMajor?: true;
  /**
   * Its files each need a module graph of their own, as a user's runner gives them: they run in
   * the tier's project `<tier>-isolated` (see ISOLATED_BY_DEFAULT).
   */
  isolate?: true;
}

/**
 * Whether a tier's files each get fresh modules. The fast and engine tiers share them within a
 * worker: their files keep their state in their own module and reset it per test, and loading
 * the mock's modules afresh for each file was most of the fast tier's time (docs/performance.md).
 * The deep and install tiers are few heavy files, where fresh modules cost nothing that shows.
 */
const ISOLATED_BY_DEFAULT: Record<Tier, boolean> = {
  fast: false,
  engine: false,
  deep: true,
  install: true,
};

export const TEST_FOLDERS: readonly TestFolder[] = [
  { folder: 'test/unit', tier: 'fast', why: 'table-driven tests of pure algorithms' },
  { folder: 'test/api', tier: 'fast', why: "the API's operations and controls, in process" },
  { folder: 'test/data', tier: 'fast', why: '`mock.db`, snapshots, fixtures, the search index' },
  { folder: 'test/faults', tier: 'fast', why: 'each deliberate defect does what it says' },
  { folder: 'test/code', tier: 'fast', why: "the code's own rules, generated files, the tiers" },
  {
    folder: 'test/docs',
    tier: 'fast',
    why: 'what the documents show: markers, regions, gap markers, the reference page',
  },
  {
    folder: 'examples/node-tests',
    tier: 'fast',
    why: "the Node test example, from the sources: its setup file's msw hooks, once per file",
    isolate: true,
  },
  {
    folder: 'test/adapters',
    tier: 'engine',
    why: 'the node:http server, the express router, msw handlers, loading state over HTTP',
  },
  { folder: 'test/cli', tier: 'engine', why: 'the commands, as subprocesses, with signals' },
  {
    folder: 'test/contract',
    tier: 'engine',
    why: 'the suite and explore against the mock over HTTP, their reports and exit codes',
  },
  {
    folder: 'test/independent',
    tier: 'engine',
    why: 'the suite against servers that are not ours, over HTTP',
  },
  {
    folder: 'test/spec-only',
    tier: 'deep',
    why: 'a server written from the spec alone by someone who had not read the kit, with its flaws: the suite and explore against it',
  },
  { folder: 'test/hardening', tier: 'engine', why: 'the catalogue of hostile requests over HTTP' },
  {
    folder: 'test/hardening/security',
    tier: 'engine',
    why: 'sockets, timeouts, binding, limits: what node:http decides',
  },
  {
    folder: 'test/hardening/concurrency',
    tier: 'engine',
    why: 'interleavings, which the event loop of the Node line orders',
  },
  {
    folder: 'test/hardening/state-file',
    tier: 'engine',
    why: 'the state file: processes, locks, signals, fsync',
  },
  { folder: 'test/regressions', tier: 'engine', why: 'one file per bug, many of them races' },
  {
    folder: 'test/contract/proofs',
    tier: 'deep',
    why: 'the kill matrix and explore against every variant, fault and correct server, over seeds; whole runs of every command against stalling and key-echoing targets',
  },
  {
    folder: 'test/hardening/fuzz',
    tier: 'deep',
    why: 'random requests (fast-check) and sequences (explore, the independent server as model), fixed seed',
  },
  {
    folder: 'test/data/properties',
    tier: 'deep',
    why: 'property runs of `mock.db` and the search index against models',
  },
  {
    folder: 'test/new-user',
    tier: 'install',
    why: "the README's blocks of an app on msw 2 or 3, run as typed from the tarball, npm 11 and 10",
    perMswMajor: true,
  },
  {
    folder: 'test/package',
    tier: 'install',
    why: 'the packed tarball installed in a separate project beside msw 2 or 3',
    perMswMajor: true,
  },
  {
    folder: 'test/clone',
    tier: 'install',
    why: "a clone's own blocks as typed: npm ci, npm start, the vendored tarball, the examples",
  },
  {
    folder: 'test/browser',
    tier: 'install',
    why: 'the worker in Chromium, the browser bundle built with Vite',
  },
  {
    folder: 'test/e2e',
    tier: 'install',
    why: "the example web app, the mock's inspector page and the HTML reports in Chromium",
  },
];

/**
 * The vitest projects of a tier, each with its folders, all named `<tier>` or `<tier>-…`. The
 * install tier's two run side by side; the steps of theirs that listen on port 4010 (the README's
 * commands name it) take turns (test/new-user/layout.ts).
 */
export function projectsOf(
  tier: Tier,
): Array<{ name: string; isolate: boolean; folders: string[] }> {
  const folders = (filter: (entry: TestFolder) => boolean) =>
    TEST_FOLDERS.filter((entry) => entry.tier === tier && filter(entry)).map(
      (entry) => entry.folder,
    );
  if (tier === 'install') {
    return [
      { name: 'install-msw', isolate: true, folders: folders((e) => !!e.perMswMajor) },
      { name: 'install', isolate: true, folders: folders((e) => !e.perMswMajor) },
    ];
  }
  const shared = ISOLATED_BY_DEFAULT[tier];
  const isolated = (entry: TestFolder) => (entry.isolate ?? shared) === !shared;
  return [
    { name: tier, isolate: shared, folders: folders((e) => !isolated(e)) },
    { name: `${tier}-isolated`, isolate: !shared, folders: folders(isolated) },
  ].filter((project) => project.folders.length > 0);
}

/** The folders of a tier. */
export function foldersOf(tier: Tier): string[] {
  return TEST_FOLDERS.filter((entry) => entry.tier === tier).map((entry) => entry.folder);
}

/** The tier of a test file (a path from the repository root), or undefined when none claims it. */
export function tierOf(file: string): Tier | undefined {
  const folder = file.slice(0, file.lastIndexOf('/'));
  return TEST_FOLDERS.find((entry) => entry.folder === folder)?.tier;
}

/**
 * What a Node line can change: the behaviour of the Node APIs the kit stands on, where Node 20, 22
 * and 24 differ (each ships its own llhttp, undici, V8 and libuv). What the kit computes from
 * what these APIs give it (the suite's, explore's and replay's verdicts, their reports and exit
 * codes, the data layer, search's ranking, the documents) runs the same on every line: it runs
 * once, on Node 20, with the rest of the fast and engine tiers.
 */
export const NODE_DECIDES = {
  'node:http':
    "the server's request parser (llhttp), socket timeouts, keep-alive, backpressure, header and body limits, binding",
  fetch:
    "the contract client's fetch is the undici bundled with the line: body streaming, aborts, request timeouts, redirects",
  'msw interception':
    "msw patches the line's own fetch, Request, Response and http modules: what it can intercept follows them",
  processes:
    'how a child process starts, takes SIGINT, SIGTERM and SIGKILL, and flushes its output before it exits',
  fs: 'rename, fsync, exclusive creates, file modes and a full disk, which the state file and its lock rest on',
  'event loop':
    'the order of timers, promise jobs and I/O callbacks, which the races, deadlines and garbage collection depend on',
  unicode: 'the Unicode tables of V8 (`\\p{L}`, `\\p{N}`), by which the search index splits words',
} as const;
type NodeApi = keyof typeof NODE_DECIDES;

export interface NodeLineTests {
  /** A folder of TEST_FOLDERS (its files, as there) or one test file, from the repository root. */
  tests: string;
  /** What Node decides in what it asserts. */
  decides: readonly NodeApi[];
  why: string;
}

/**
 * The tests of the fast and engine tiers that .ci/run runs again on Node 22 and 24: each asserts
 * something a Node API decides (NODE_DECIDES), not only what the kit computes. Every other test of
 * these tiers runs once, on Node 20 (`npm test`); none is dropped from every line. A file that
 * starts the CLI only to read a verdict or a report is not here: that the CLI starts, takes a
 * signal and exits as a shell expects is proved on each line by the files that assert it.
 */
export const NODE_LINE: readonly NodeLineTests[] = [
  {
    tests: 'test/adapters',
    decides: ['node:http', 'msw interception'],
    why: 'the node:http server, the express router and msw handlers, each on the API of the line',
  },
  {
    tests: 'test/hardening',
    decides: ['node:http'],
    why: 'hostile requests, most of them refused by the parser before the kit sees them',
  },
  {
    tests: 'test/hardening/security',
    decides: ['node:http', 'fetch', 'fs'],
    why: 'sockets, timeouts, limits, binding, streamed bodies and memory under load',
  },
  {
    tests: 'test/hardening/concurrency',
    decides: ['event loop'],
    why: 'interleavings, which the event loop of the line orders',
  },
  {
    tests: 'test/hardening/state-file',
    decides: ['fs', 'processes'],
    why: 'durability across `kill -9`, locks raced by processes, modes, a full disk',
  },
  {
    tests: 'test/regressions',
    decides: ['node:http', 'event loop'],
    why: 'bugs met over node:http, many of them races and deadlines',
  },
  {
    tests: 'test/cli/cli.node.test.ts',
    decides: ['processes', 'node:http'],
    why: 'the answers-mock bin starts, serves, and stops on SIGTERM and SIGKILL',
  },
  {
    tests: 'test/cli/interrupted-runs.node.test.ts',
    decides: ['processes'],
    why: 'Ctrl-C and SIGTERM during a run of each command: clean-up, then the exit a shell shows',
  },
  {
    tests: 'test/cli/start-script.node.test.ts',
    decides: ['processes', 'fs'],
    why: '`npm start`: plain node runs the start script, which bundles and spawns the mock',
  },
  {
    tests: 'test/cli/stalled-target.node.test.ts',
    decides: ['fetch', 'event loop'],
    why: "a stalled target's request ends by its timeout, under frequent garbage collection",
  },
  {
    tests: 'test/api/msw-control.node.test.ts',
    decides: ['msw interception'],
    why: 'msw in process, over the fetch of the line',
  },
  {
    tests: 'examples/node-tests',
    decides: ['msw interception'],
    why: "the Node test example: its setup file's msw hooks, as its users run them",
  },
  {
    tests: 'test/unit/search-words.node.test.ts',
    decides: ['unicode'],
    why: 'the words of any text, by the Unicode tables of the line',
  },
];

/** The `include` globs of NODE_LINE among `folders` (a project's): whole folders and single files. */
export function nodeLineIncludes(folders: readonly string[]): string[] {
  return NODE_LINE.map((entry) => entry.tests)
    .filter((tests) =>
      tests.endsWith('.test.ts')
        ? folders.includes(tests.slice(0, tests.lastIndexOf('/')))
        : folders.includes(tests),
    )
    .map((tests) => (tests.endsWith('.test.ts') ? tests : `${tests}/*.test.ts`));
}

/** Files run in Chromium (the browser project of the install tier) rather than in Node. */
export const BROWSER_TEST = '*.browser.test.ts';

/**
 * The files that take longest, longest first within each tier (measured in .ci/run at 3cbbb21:
 * docs/performance.md). Vitest orders files it has no timing of by their size, so on a clean clone
 * a short file can hold a worker while the longest starts last and runs alone at the end.
 * Started longest first, two workers end together (test/support/longest-first.ts). Where vitest has
 * timings of its own (a developer's machine), this list still goes first: it is the same measure,
 * taken on the machine CI runs on.
 */
export const LONGEST_FIRST: readonly string[] = [
  // install (three workers): 169, 136 and 93 s with msw 2 on Node 20
  'test/new-user/readme.node.test.ts',
  'test/clone/readme.node.test.ts',
  'test/e2e/web-app.e2e.test.ts',
  // deep on Node 24: 41, 33, 31, 27, 23, 20, 14, 12, 12, 12 and 9 s. In vitest's order the
  // longest, explore-blind-spots, started 26 s in, and the 8-12 s files of the last five ran at
  // the end, from 118 s to 153 s.
  // (issue 48's design variants make explore-beyond-fixed-checks the longest: about 105 s on a
  // quiet machine at c381914, cascade-never-completes 44 s of it; the spec-only file 26 s)
  'test/contract/proofs/explore-beyond-fixed-checks.node.test.ts',
  'test/contract/proofs/explore-blind-spots.node.test.ts',
  'test/contract/proofs/explore-mock-faults.node.test.ts',
  'test/spec-only/spec-only.node.test.ts',
  'test/contract/proofs/explore-designs.node.test.ts',
  'test/contract/proofs/stalled-target-matrix.node.test.ts',
  'test/contract/proofs/explore-variants.node.test.ts',
  'test/contract/proofs/interrupted-runs.node.test.ts',
  'test/hardening/fuzz/sequences.node.test.ts',
  'test/contract/proofs/kill-matrix.node.test.ts',
  'test/spec-only/flaws-found.node.test.ts',
  'test/contract/proofs/readme-explore-story.node.test.ts',
  'test/contract/proofs/explore-flaky-bug.node.test.ts',
  // engine on Node 20: new-operation-compile-errors 52 s with two runs of generate and tsc (one
  // since), then 16, 15, 15, 14, 13, 12, 11, 10 and 10 s. stalled-target started 140 s in; of the
  // four that run on Node 22 and 24 too (stalled-target, hostile-target, recording-memory,
  // cli-state-file: 16, 11, 15 and 9 s on Node 24), recording-memory started there 19 s in.
  'test/cli/new-operation-compile-errors.node.test.ts',
  'test/cli/contract-cli.node.test.ts',
  'test/cli/stalled-target.node.test.ts',
  'test/independent/deployments.node.test.ts',
  'test/hardening/security/hostile-target.node.test.ts',
  'test/hardening/security/recording-memory.node.test.ts',
  'test/contract/explore-report.node.test.ts',
  'test/contract/explore-order-observable.node.test.ts',
  'test/cli/contract-cli-target.node.test.ts',
  'test/hardening/state-file/cli-state-file.node.test.ts',
];
