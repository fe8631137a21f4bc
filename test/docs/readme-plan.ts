/**
 * How each marked block of the README and of the examples' READMEs is tested, and the helpers that
 * read them. Shared by the three tests that hold the documents true: test/docs/readme.node.test.ts
 * (what the documents show, fast), test/contract/proofs/readme-explore-story.node.test.ts (the
 * story explore prints, deep: a search whose verdict no Node line changes) and
 * test/new-user/readme.node.test.ts (every line run as typed, install).
 */
import { docBlocks, shellCommands, type DocBlock } from './doc-blocks.ts';

/** How each marked block is tested: the closing note of the issue lists this table. */
export const HOW: Record<string, string> = {
  'set-up':
    '`npm ci` (the first command of the pack line, in a fresh clone) and `npm start` in that clone',
  install: 'run as typed in the copy, with your-app beside it',
  frontend: 'the server started in your-app; the curl line run against it',
  'quick-setup': 'the setup file of a vitest project; tsc, then a test on a loopback URL',
  'ci-owner': 'run in your-app against that server, with npm 11 and npm 10',
  'mock-curl': 'run against the server started by `frontend`',
  'control-reset': 'run against the server started by `frontend` (no Content-Type: 204)',
  'journal-stream':
    'started against the server of `frontend`: its first request events arrive, then it is stopped',
  snapshot:
    'run in your-app: the server of `frontend` stands for staging; its copy on 4011 lists the same collections',
  'nightly-diff':
    'run in your-app against the server of `frontend` (staging): the first night writes the baseline, a second run finds nothing new',
  'node-setup-msw2': "setup.ts of the app on msw 2; tsc and vitest with the example's tests",
  'node-setup-msw3': 'its line replaces the msw 2 listen line on msw 3; tsc and vitest',
  'node-test-head': 'the first region of examples/node-tests/data.test.ts, run in the app',
  'node-client': 'examples/node-tests/answers-client.ts, exactly; run in the app',
  seed: 'a region of examples/node-tests/data.test.ts, run in the app',
  inspect: 'a region of examples/node-tests/data.test.ts, run in the app',
  override: 'a region of examples/node-tests/data.test.ts, run in the app',
  'leave-out': 'a region of examples/node-tests/data.test.ts, run in the app',
  'msw-init': "run in your-app: the worker script is the installed msw's own",
  'browser-setup': 'compiled with tsc in the app (not run in a browser: see its marker)',
  express: 'a module of the app; a test listens on loopback and gets a page',
  'from-nothing': 'run in your-app against the server of `frontend` (init, then the read-only run)',
  'local-profile': 'run in your-app against the server of `frontend`',
  'explore-story':
    'explore run here from the sources against the independent server with walk-offset-token, its output compared (run ids, uuids, port and time masked); its replay line replayed',
  'explore-local': 'run in your-app against the server of `frontend`',
  'html-reports':
    'run in your-app against the server of `frontend`: each page written, its verdict the run’s',
  'update-parts':
    'parsed as a description here; the spec-only server, described so, is explored without a false alarm (test/spec-only)',
  workflow: 'its `run:` steps in your-repo, against a mock on loopback; the JUnit file read',
  'ci-vendor': 'run as typed in the copy: the tarball lands in ../your-repo/vendor/',
  'node-tests-example': "run in the copy's examples/node-tests",
  'node-tests-replay':
    "run in the copy's examples/node-tests after node-tests-example, against the kit's mock on a port of its own",
  'web-app-here': 'run in the copy: the mock and the Vite server both answer',
  'web-app-copy': 'run in a copy of examples/web-app beside the kit: the Vite server answers',
};

/** Inline commands of the prose: run here (`run:`), or why not. */
export const INLINE: Record<string, string> = {
  'npm start': 'run: the `set-up` block',
  'npm test':
    'not run: the fast and engine tiers of this suite (.ci/run runs them on a clean clone: on Node 20, and what a Node line can change on 22 and 24)',
  'npm install --save-dev "git+https://github.com/<owner>/answers-mock-kit.git#<commit>"':
    'not run: a placeholder URL, and no git host is reachable here',
  'npx --no -- <bin>': 'not run: a pattern, not a command',
  'npx --no answers-contract --help':
    'run: shown as the form that fails; a test proves npx prints its own help for it',
  'npm install --save-dev swagger-ui-dist@5': 'run: in your-app, then /docs is Swagger UI',
  'npm install --save-dev @faker-js/faker@10': 'run: in your-app, before the factories snippet',
  'npm install --save-dev @stoplight/prism-cli@5.14.2':
    'not run: Prism and its 200 packages; --via-prism is tested from the devDependency in test/cli/contract-cli.node.test.ts',
  'answers-mock --seed/--size': 'not run: a fragment naming two options',
  'npx --no -- answers-contract --mock': 'run: in your-app, with npm 11 and npm 10',
  'answers-contract --mock': 'not run: a fragment; the npx form of it is run',
  'answers-contract explore': 'not run: a name; its npx form is run (the `explore-local` block)',
  'answers-contract replay':
    'not run: a name; its npx form is run (the `node-tests-replay` block of examples/node-tests)',
  'npx --no -- answers-contract sweep --older-than 1h': 'run: in your-app against the local mock',
  'npx --no -- answers-mock': 'run: the `frontend` block',
  'npx --no -- answers-contract': 'run: the workflow steps',
  'npm run bench': 'not run: minutes of benchmarks, run by hand (docs/performance.md)',
  'npm run generate':
    'not run: test/code/generated-types.node.test.ts fails when its output is stale',
  'npm run fixtures': 'not run: test/data/fixtures.node.test.ts fails when the fixture is stale',
  'npm run lint': 'not run here: .ci/run runs it',
  'npm run pack:report': 'not run: a report for maintainers; the package test checks the files',
  'npm install --no-save ./vendor/answers-mock-kit-0.1.0.tgz': 'run: the workflow steps',
  'npm install --save-dev ../answers-mock-kit/answers-mock-kit-0.1.0.tgz':
    'run: the `install` block',
  'npm pack': 'run: the `install` block',
  'npx msw init public/': 'run: the `msw-init` block (with --save)',
  'npx vitest run --project install test/e2e/web-app.e2e.test.ts':
    'not run: a test of this suite, which npm run test:install runs',
  'npm run test:deep': 'not run here: a tier of this suite, which .ci/run runs',
  'npm run test:install':
    'not run here: the tier of the tests that run the blocks (.ci/run: all of it with msw 2, its install-msw project again with msw 3)',
};

/**
 * Which test runs each shell block as typed: the app's blocks once per msw major, the
 * repository's own once (test/README.md). test/docs/readme.node.test.ts checks that every shell
 * block is here exactly once.
 */
export const SHELL_BLOCKS_RUN_BY = {
  'test/new-user': [
    'install',
    'frontend',
    'ci-owner',
    'mock-curl',
    'control-reset',
    'journal-stream',
    'snapshot',
    'nightly-diff',
    'msw-init',
    'from-nothing',
    'local-profile',
    'explore-local',
    'html-reports',
  ],
  'test/clone': [
    'set-up',
    'ci-vendor',
    'node-tests-example',
    'node-tests-replay',
    'web-app-here',
    'web-app-copy',
  ],
} as const satisfies Record<string, readonly string[]>;

export const BLOCKS = docBlocks();

export function block(id: string): DocBlock {
  const found = BLOCKS.find((candidate) => candidate.id === id);
  if (!found) throw new Error(`no block marked doc-test: ${id}`);
  return found;
}

/** The commands of a shell block that its marker does not leave out. */
export function commandsOf(id: string): string[] {
  const { body, notRun } = block(id);
  return shellCommands(body).filter((command) => !notRun.has(command.replace(/\s+#.*$/, '')));
}

/** The `// #region name` blocks of an example file, indentation removed. */
export function regions(text: string): Map<string, string> {
  const found = new Map<string, string>();
  for (const match of text.matchAll(
    /^( *)\/\/ #region (\S+)\n([\s\S]*?)^\1\/\/ #endregion \2$/gm,
  )) {
    const indent = match[1]!.length;
    const body = match[3]!
      .split('\n')
      .map((line) => line.slice(indent))
      .join('\n')
      .trimEnd();
    found.set(match[2]!, `${body}\n`);
  }
  return found;
}
