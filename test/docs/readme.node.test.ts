/**
 * The README is executable. Every fenced block of the README and of the examples' READMEs carries
 * a `<!-- doc-test: id -->` marker, and each is run here exactly as a user types it, in a scratch
 * layout a new user would have: a copy of this repository (`answers-mock-kit/`), an app beside it
 * that already has msw (`your-app/`), and a repository with a `vendor/` folder (`your-repo/`).
 * The kit is installed from the tarball the README's own lines pack. The npx lines run through the
 * machine's npm (11) and npm 10; the TypeScript snippets are compiled with tsc and run with vitest
 * against msw 2 on Node 20 and msw 3 on Node 22.12 and later (CI runs this file on 20, 22 and 24).
 * A line that is not run is named in its block's marker, with the reason; the last test proves
 * that every other line ran.
 */
import { cp, mkdir, mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { execFile, execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { createMock } from '../../src/index.ts';
import { startServer, type RunningServer } from '../../src/node/server.ts';
import { startIndependentServer } from '../independent/server.ts';
import {
  docBlocks,
  inlineCommands,
  readDocument,
  ROOT,
  shellCommands,
  type DocBlock,
} from './doc-blocks.ts';
import { executed, expectRan, runCommands, startCommand, type Background } from './run-commands.ts';
import {
  EXPRESS_TEST,
  QUICK_TEST,
  TSCONFIG,
  TSCONFIG_CONTROL,
  unhandledTest,
  VITEST_CONFIG,
} from './snippet-project.ts';

/** The msw major of this Node line: 3 needs Node 22.12. */
const [nodeMajor, nodeMinor] = process.versions.node.split('.').map(Number) as [number, number];
const MSW = nodeMajor > 22 || (nodeMajor === 22 && nodeMinor >= 12) ? '3' : '2';
const OTHER = MSW === '3' ? '2' : '3';
/** What an app on each major would have: vitest 5 needs Node 22.12 too. */
const APP_PACKAGES =
  MSW === '3'
    ? ['msw@3.0.5', 'vitest@5.1.1', '@types/node@22.20.5']
    : ['msw@2.15.0', 'vitest@4.1.12', '@types/node@20.19.43'];
const NPM_10 = 'npm@10.9.4';

/** How each marked block is tested: the closing note of the issue lists this table. */
const HOW: Record<string, string> = {
  'set-up': '`npm ci` and `npm start` in the copy of the repository (a fresh clone)',
  install: 'run as typed in the copy, with your-app beside it',
  frontend: 'the server started in your-app; the curl line run against it',
  'quick-setup': 'the setup file of a vitest project; tsc, then a test on a loopback URL',
  'ci-owner': 'run in your-app against that server, with npm 11 and npm 10',
  'mock-curl': 'run against the server started by `frontend`',
  'control-reset': 'run against the server started by `frontend` (no Content-Type: 204)',
  'node-setup-msw2': "setup.ts of the app on msw 2; tsc and vitest with the example's tests",
  'node-setup-msw3': 'its line replaces the msw 2 listen line on msw 3; tsc and vitest',
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
  workflow: 'its `run:` steps in your-repo, against a mock on loopback; the JUnit file read',
  'ci-vendor': 'run as typed in the copy: the tarball lands in ../your-repo/vendor/',
  'node-tests-example': "run in the copy's examples/node-tests",
  'web-app-here': 'run in the copy: the mock and the Vite server both answer',
  'web-app-copy': 'run in a copy of examples/web-app beside the kit: the Vite server answers',
};

/** Inline commands of the prose: run here (`run:`), or why not. */
const INLINE: Record<string, string> = {
  'npm start': 'run: the `set-up` block',
  'npm test': 'not run: it is the command that runs this test (.ci/run runs it on a clean clone)',
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
  'npx vitest run --project node test/e2e/web-app.e2e.test.ts':
    'not run: a test of this suite, which npm test runs',
};

const BLOCKS = docBlocks();

function block(id: string): DocBlock {
  const found = BLOCKS.find((candidate) => candidate.id === id);
  if (!found) throw new Error(`no block marked doc-test: ${id}`);
  return found;
}

/** The commands of a shell block that its marker does not leave out. */
function commandsOf(id: string): string[] {
  const { body, notRun } = block(id);
  return shellCommands(body).filter((command) => !notRun.has(command.replace(/\s+#.*$/, '')));
}

/** The `// #region name` blocks of an example file, indentation removed. */
function regions(text: string): Map<string, string> {
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

const DATA_TEST = readDocument('examples/node-tests/data.test.ts');

describe('what the documents show', () => {
  it('marks every fenced block of the README and the examples with a doc-test id, each once', () => {
    const unmarked = BLOCKS.filter((b) => b.id === undefined).map((b) => `${b.document}:${b.line}`);
    expect(unmarked).toEqual([]);
    const ids = BLOCKS.map((b) => b.id);
    expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
  });

  it('has a way to test every marked block, and a block for every way', () => {
    expect(BLOCKS.map((b) => b.id).sort()).toEqual(Object.keys(HOW).sort());
  });

  it('shows each region of examples/node-tests/data.test.ts in the README, exactly', () => {
    const found = regions(DATA_TEST);
    expect([...found.keys()]).toEqual(['seed', 'inspect', 'override', 'leave-out']);
    for (const [name, body] of found) expect(block(name).body, name).toBe(body);
  });

  it('shows examples/node-tests/setup.ts as the msw 2 setup; the msw 3 form changes its listen line', async () => {
    const setup = await readFile(join(ROOT, 'examples/node-tests/setup.ts'), 'utf8');
    expect(block('node-setup-msw2').body).toBe(setup);
    const [line] = block('node-setup-msw3').body.trimEnd().split('\n');
    expect(line).toMatch(
      /^beforeAll\(\(\) => server\.listen\(\{ onUnhandledFrame: 'error' \}\)\);$/,
    );
    expect(setup).toContain("beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));\n");
  });

  it('says how every inline command is tested, or why it is not run', () => {
    const found = [...new Set(inlineCommands().map((c) => c.command))].sort();
    expect(found).toEqual(Object.keys(INLINE).sort());
    for (const [command, how] of Object.entries(INLINE))
      expect(how, command).toMatch(/^(run|not run)/);
  });

  it('shows what explore prints for walk-offset-token on the independent server, and it replays', async () => {
    const shown = block('explore-story').body;
    const replay =
      /^Replay exactly this sequence: npx --no -- (answers-contract explore .*)$/m.exec(shown)![1]!;
    const server = await startIndependentServer({ variant: 'walk-offset-token' });
    /** The CLI from the sources, with the server's keys in the environment, as the story's run had. */
    const cli = async (args: string[]) => {
      const ran = await promisify(execFile)(
        process.execPath,
        ['--import', 'tsx', join(ROOT, 'src/bin/answers-contract.ts'), ...args],
        {
          cwd: ROOT,
          env: {
            PATH: process.env.PATH,
            ANSWERS_API_KEY: server.keys.full,
            ANSWERS_READONLY_KEY: server.keys.readonly,
            ANSWERS_OTHER_ACCOUNT_KEY: server.keys.otherAccount,
            ANSWERS_INACTIVE_KEY: server.keys.inactive,
          },
        },
      ).then(
        () => expect.fail('explore agreed with a seeded bug'),
        (error: { code: number; stdout: string }) => error,
      );
      expect(ran.code).toBe(1);
      return ran.stdout;
    };
    const mask = (text: string) =>
      text
        .replace(/answers-contract-[0-9a-z]{12}-x/g, 'answers-contract-<run>-x')
        .replace(/[0-9a-f]{8}(-[0-9a-f]{4}){3}-[0-9a-f]{12}/g, '<uuid>')
        .replace(/http:\/\/127\.0\.0\.1:\d+/g, 'http://127.0.0.1:<port>')
        .replace(/ in \d+\.\d s /, ' in <seconds> s ');
    try {
      // The run of the story: its replay line without --replay, on this server's port.
      const args = replay
        .replace(/ --replay '.*'$/, '')
        .replace(/http:\/\/127\.0\.0\.1:\d+/, server.url)
        .split(' ')
        .slice(1);
      const printed = await cli(args);
      // What it reached is cut at "…" in the README.
      const cut = printed.replace(/\nReached:.*\n(?: {9}.*\n)*/, '\n…\n');
      expect(mask(shown)).toBe(mask(cut));
      // The replay line replays the same steps (names carry the sequence's number: masked).
      const steps = (text: string) =>
        mask(text)
          .split('\n')
          .filter((line) => /^(\d+\. |[A-Z]+-[A-Z0-9-]+: )/.test(line))
          .map((line) => line.replace(/-x\d+-/g, '-x<n>-'));
      const replayed = await cli([...args, '--replay', /--replay '(.*)'$/.exec(replay)![1]!]);
      expect(steps(shown).length).toBeGreaterThan(2);
      expect(steps(replayed)).toEqual(steps(shown));
    } finally {
      await server.close();
    }
  }, 180_000);

  it('names a reason for every line a block leaves out, and each is a line of the block', () => {
    for (const b of BLOCKS) {
      const commands = shellCommands(b.body).map((c) => c.replace(/\s+#.*$/, ''));
      for (const [command, reason] of b.notRun) {
        if (b.lang === 'sh') expect(commands, `${b.id}: ${command}`).toContain(command);
        expect(reason.length, `${b.id}: ${command}`).toBeGreaterThan(10);
      }
    }
  });
});

/** Setup of the app for this msw major: the README's msw 2 file, with msw 3's line where it differs. */
function setupFor(major: string): string {
  const setup = block('node-setup-msw2').body;
  if (major === '2') return setup;
  return setup.replace(
    "beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));\n",
    block('node-setup-msw3').body,
  );
}

/** The environment a CI owner's shell would have, for the local mock on port 4010. */
const KEYS = {
  ANSWERS_API_KEY: 'answers_test_full_acme',
  ANSWERS_READONLY_KEY: 'answers_test_readonly_acme',
  ANSWERS_OTHER_ACCOUNT_KEY: 'answers_test_full_globex',
  ANSWERS_INACTIVE_KEY: 'answers_test_inactive_acme',
};

describe(`the documents, followed by a new user (msw ${MSW}, Node ${process.versions.node})`, () => {
  let work: string;
  let kit: string;
  let app: string;
  let repo: string;
  /** PATH with npm 10's npm and npx first. */
  let npm10Path: string;
  const running: Background[] = [];

  /** A server a failed step left running would hold port 4010 for the next step. */
  afterEach(async () => {
    for (const server of running.splice(0)) await server.stop();
  });
  afterAll(async () => {
    if (work) await rm(work, { recursive: true, force: true });
  });

  it('lays out a copy of the kit, an app that already has msw, and a repository', async () => {
    // The README's commands name port 4010: a mock a developer left running there would answer
    // in place of the one these lines start.
    const taken = await fetch('http://127.0.0.1:4010/').then(
      () => true,
      () => false,
    );
    expect(taken, 'port 4010 is in use: stop what listens there (npm start?)').toBe(false);
    work = await realpath(await mkdtemp(join(tmpdir(), 'answers-docs-')));
    kit = join(work, 'answers-mock-kit');
    app = join(work, 'your-app');
    repo = join(work, 'your-repo');
    // The files a clone has: the tracked ones, as they are in this working tree.
    const tracked = execFileSync('git', ['ls-files', '-z'], { cwd: ROOT, encoding: 'utf8' })
      .split('\0')
      .filter(Boolean);
    for (const file of tracked) await cp(join(ROOT, file), join(kit, file), { recursive: true });
    await mkdir(join(repo, 'vendor'), { recursive: true });
    await mkdir(app, { recursive: true });
    await writeFile(
      join(app, 'package.json'),
      `${JSON.stringify({ name: 'your-app', private: true, type: 'module' }, null, 2)}\n`,
    );
    const [installed, npm10Install] = await Promise.all([
      runCommands(
        'layout',
        [
          `npm install --save-dev ${APP_PACKAGES.join(' ')} typescript@5.9.3 express@5.3.0 @types/express@5.0.6 --ignore-scripts`,
        ],
        app,
      ),
      runCommands(
        'layout',
        [`npm install --prefix npm10 --no-save --no-package-lock ${NPM_10}`],
        work,
      ),
    ]);
    expectRan('the app', installed);
    expectRan('npm 10', npm10Install);
    // npm's own bin scripts find npm beside the node binary; these run npm 10's with this node.
    const npm10 = join(work, 'npm10', 'node_modules', 'npm', 'bin');
    await mkdir(join(work, 'npm10-bin'));
    for (const [name, cli] of [
      ['npm', 'npm-cli.js'],
      ['npx', 'npx-cli.js'],
    ])
      await writeFile(
        join(work, 'npm10-bin', name!),
        `#!/bin/sh\nexec node "${join(npm10, cli!)}" "$@"\n`,
        {
          mode: 0o755,
        },
      );
    npm10Path = `${join(work, 'npm10-bin')}:${process.env.PATH}`;
    const version = await runCommands('layout', ['npx --version'], work, { PATH: npm10Path });
    expect(version.stdout.trim()).toMatch(/^10\./);
  }, 300_000);

  it('set-up: npm ci, then npm start serves the seed and stops on Ctrl-C', async () => {
    const [ci, start] = commandsOf('set-up');
    expect(ci).toBe('npm ci');
    expectRan('npm ci', await runCommands('set-up', [ci!], kit));
    const server = await startCommand('set-up', start!, kit, /Answers mock listening on (\S+)/);
    running.push(server);
    const response = await fetch('http://127.0.0.1:4010/api/answers/v1/collections', {
      headers: { authorization: 'Bearer answers_test_full_acme' },
    });
    expect(response.status).toBe(200);
    // Ctrl-C: npm passes the signal on and ends by it (a shell shows 130); the mock stops cleanly.
    running.splice(running.indexOf(server), 1);
    await server.stop();
    expect(server.output()).toMatch(/stopped\s*$/);
  }, 400_000);

  it('install: packs the kit and installs the tarball into the app beside it', async () => {
    expectRan('install', await runCommands('install', commandsOf('install'), kit));
    const manifest = JSON.parse(await readFile(join(app, 'package.json'), 'utf8'));
    expect(manifest.devDependencies['answers-mock-kit']).toBe(
      'file:../answers-mock-kit/answers-mock-kit-0.1.0.tgz',
    );
    const mswVersion = JSON.parse(
      await readFile(join(app, 'node_modules', 'msw', 'package.json'), 'utf8'),
    ).version as string;
    expect(mswVersion.split('.')[0]).toBe(MSW);
  }, 400_000);

  it('ci-vendor: packs the kit again and copies the tarball to the vendor folder', async () => {
    expectRan('ci-vendor', await runCommands('ci-vendor', commandsOf('ci-vendor'), kit));
    await expect(
      readFile(join(repo, 'vendor', 'answers-mock-kit-0.1.0.tgz')),
    ).resolves.toBeTruthy();
  }, 400_000);

  it('installs the optional peers the prose names (faker, swagger-ui-dist)', async () => {
    for (const command of [
      'npm install --save-dev @faker-js/faker@10',
      'npm install --save-dev swagger-ui-dist@5',
    ])
      expectRan(command, await runCommands('inline', [command], app));
  }, 300_000);

  it('npx: the form without -- fails on npm 11 and 10; with it, the bins answer', async () => {
    for (const path of [process.env.PATH!, npm10Path]) {
      const wrong = await runCommands('inline', ['npx --no answers-contract --help'], app, {
        PATH: path,
      });
      expect(wrong.stdout + wrong.stderr).toMatch(/npm exec/); // npx's own help, not the bin's
      for (const bin of ['answers-contract', 'answers-mock']) {
        const right = await runCommands('npx', [`npx --no -- ${bin} --help`], app, { PATH: path });
        expectRan(bin, right);
        expect(right.stdout).toContain(`Usage: ${bin}`);
      }
      const sweepHelp = await runCommands(
        'npx',
        ['npx --no -- answers-contract sweep --help'],
        app,
        {
          PATH: path,
        },
      );
      expect(sweepHelp.stdout).toMatch(/--older-than <duration>\s+required/);
      const mock = await runCommands('inline', ['npx --no -- answers-contract --mock'], app, {
        PATH: path,
      });
      expectRan('--mock', mock);
      expect(mock.stdout).toMatch(/\d+ passed, 0 failed/);
    }
  }, 300_000);

  it('frontend, CI owner and control lines: against npx --no -- answers-mock on port 4010', async () => {
    const [start, ...rest] = commandsOf('frontend');
    const server = await startCommand('frontend', start!, app, /Answers mock listening on \S+/);
    running.push(server);
    // Installed, the banner names no file of the kit's own folder.
    expect(server.output()).not.toContain('fixtures/');
    expect(server.output()).toMatch(/Docs\s+\S+\/docs\s+\(Swagger UI/);

    const curl = await runCommands('frontend', rest, app);
    expectRan('curl', curl);
    expect(JSON.parse(curl.stdout).data.length).toBeGreaterThan(0);
    const again = await runCommands('mock-curl', commandsOf('mock-curl'), app);
    expect(JSON.parse(again.stdout).data.length).toBeGreaterThan(0);

    const root = 'http://127.0.0.1:4010';
    for (const path of [process.env.PATH!, npm10Path]) {
      const owner = await runCommands('ci-owner', commandsOf('ci-owner'), app, {
        ...KEYS,
        ANSWERS_BASE_URL: `${root}/api/answers/v1`,
        PATH: path,
      });
      expectRan('ci-owner', owner);
      expect(owner.stdout).toMatch(/PASSED/);
    }
    const fromNothing = await runCommands('from-nothing', commandsOf('from-nothing'), app, {
      ...KEYS,
      ANSWERS_BASE_URL: root,
    });
    expectRan('from-nothing', fromNothing);
    // Step 3's promise: every check passes or skips, and no failure is shown anywhere.
    expect(fromNothing.stdout).not.toMatch(/^FAIL/m);
    expect(fromNothing.stdout).toMatch(
      /\d+ passed, 0 failed, \d+ skipped .*: PASSED at level spec/,
    );
    await expect(readFile(join(app, 'answers-target.yaml'), 'utf8')).resolves.toContain(
      'operations:',
    );
    const profile = await runCommands('local-profile', commandsOf('local-profile'), app);
    expectRan('local-profile', profile);
    expect(profile.stdout).toMatch(/\d+ passed, 0 failed, 0 skipped/);
    const explored = await runCommands('explore-local', commandsOf('explore-local'), app);
    expectRan('explore-local', explored);
    expect(explored.stdout).toMatch(/^AGREED: /);
    // The README's word: every clause within reach is reached, with its seed.
    expect(explored.stdout).toMatch(/^Coverage: (\d+) of \1 clauses \(100%\)$/m);
    const sweep = await runCommands(
      'inline',
      ['npx --no -- answers-contract sweep --older-than 1h'],
      app,
      { ...KEYS, ANSWERS_BASE_URL: `${root}/api/answers/v1` },
    );
    expectRan('sweep', sweep);

    const reset = await runCommands('control-reset', [...commandsOf('control-reset')], app);
    expectRan('control-reset', reset);
    const status = await runCommands(
      'check',
      [`${commandsOf('control-reset')[0]} -o /dev/null -w '%{http_code}'`],
      app,
    );
    expect(status.stdout).toBe('204');
    running.splice(running.indexOf(server), 1);
    await server.stop();
    expect(server.output()).toMatch(/stopped\s*$/);
  }, 400_000);

  it("msw-init: writes the installed msw's own worker script and records the folder", async () => {
    expectRan('msw-init', await runCommands('msw-init', commandsOf('msw-init'), app));
    const written = await readFile(join(app, 'public', 'mockServiceWorker.js'), 'utf8');
    const own = await readFile(
      join(app, 'node_modules', 'msw', 'lib', 'mockServiceWorker.js'),
      'utf8',
    );
    expect(written).toBe(own);
    const manifest = JSON.parse(await readFile(join(app, 'package.json'), 'utf8'));
    expect(manifest.msw.workerDirectory).toEqual(['public']);
  }, 120_000);

  it(`the TypeScript snippets compile with tsc and pass with vitest on msw ${MSW}`, async () => {
    const example = (file: string) => readFile(join(ROOT, 'examples', 'node-tests', file), 'utf8');
    const files: Record<string, string> = {
      'tsconfig.json': TSCONFIG,
      'tsconfig.control.json': TSCONFIG_CONTROL,
      'vitest.config.ts': VITEST_CONFIG,
      'setup.ts': setupFor(MSW),
      'answers-client.ts': await example('answers-client.ts'),
      'answers.test.ts': await example('answers.test.ts'),
      'data.test.ts': DATA_TEST,
      'unhandled.test.ts': unhandledTest('./setup.ts'),
      'quick/setup.ts': block('quick-setup').body,
      'quick/quick.test.ts': QUICK_TEST,
      'browser.ts': block('browser-setup').body,
      'express-app.ts': `${block('express').body}\nexport { app };\n`,
      'express.test.ts': EXPRESS_TEST,
      // The other major's form: a type error, and ignored at run time.
      'control/setup.ts': setupFor(OTHER),
      'control/unhandled.test.ts': unhandledTest('./setup.ts'),
    };
    for (const [file, text] of Object.entries(files)) {
      await mkdir(join(app, file, '..'), { recursive: true });
      await writeFile(join(app, file), text);
    }
    const tsc = await runCommands(
      'check',
      ['npx --no -- tsc -p tsconfig.json --pretty false'],
      app,
    );
    expectRan('tsc', tsc);

    const vitest = await runCommands(
      'check',
      ['npx --no -- vitest run --project app --project quick --reporter=verbose'],
      app,
    );
    expectRan('vitest', vitest);
    for (const name of [
      'shows a collection seeded with factories',
      'deletes a collection with its objects',
      'shows an error when listing fails',
      'fails the search, nothing else',
      'has search back after resetHandlers()',
      'answers on a loopback origin with the quick-start setup',
      'serves the API from the express app of the README',
      'fails a request that the mock does not claim',
    ])
      expect(vitest.stdout, name).toMatch(new RegExp(`✓ .*${name.replace(/[()]/g, '\\$&')}`));
    expect(vitest.stdout).not.toMatch(/ skipped|✗|×/);
  }, 300_000);

  it(`the msw ${OTHER} option on msw ${MSW}: a type error, and an unclaimed request gets through`, async () => {
    const tsc = await runCommands(
      'check',
      ['npx --no -- tsc -p tsconfig.control.json --pretty false'],
      app,
    );
    const errors = tsc.stdout.split('\n').filter((line) => line.includes('error TS'));
    expect(errors, tsc.stdout + tsc.stderr).toHaveLength(1);
    expect(errors[0]).toMatch(/^control\/setup\.ts\(\d+,\d+\): error TS(2353|2561)/);
    const vitest = await runCommands('check', ['npx --no -- vitest run --project control'], app);
    expect(vitest.code).not.toBe(0);
    expect(vitest.stdout + vitest.stderr).toMatch(/fails a request that the mock does not claim/);
    expect(vitest.stdout + vitest.stderr).toMatch(/Tests\s+1 failed/);
  }, 300_000);

  it('workflow: the run steps of the README and of examples/ci/contract.yml write a green JUnit report', async () => {
    const server: RunningServer = await startServer({
      mock: await createMock(),
      port: 0,
      quiet: true,
    });
    try {
      const settings: Record<string, string> = {
        'vars.ANSWERS_BASE_URL': `${server.url}/api/answers/v1`,
        'secrets.ANSWERS_API_KEY': KEYS.ANSWERS_API_KEY,
        'secrets.ANSWERS_READONLY_KEY': KEYS.ANSWERS_READONLY_KEY,
        'secrets.ANSWERS_OTHER_ACCOUNT_KEY': KEYS.ANSWERS_OTHER_ACCOUNT_KEY,
        'secrets.ANSWERS_INACTIVE_KEY': KEYS.ANSWERS_INACTIVE_KEY,
      };
      const workflows: Array<[string, string]> = [
        ['workflow', block('workflow').body],
        ['contract.yml', await readFile(join(ROOT, 'examples/ci/contract.yml'), 'utf8')],
      ];
      for (const [id, text] of workflows) {
        const steps = (parse(text) as { jobs: { contract: { steps: WorkflowStep[] } } }).jobs
          .contract.steps;
        const folder = join(work, `checkout-${id}`);
        await cp(repo, folder, { recursive: true });
        for (const step of steps.filter((s) => s.run)) {
          const env: Record<string, string> = {};
          for (const [name, value] of Object.entries(step.env ?? {})) {
            const reference = /^\$\{\{ (.+) \}\}$/.exec(value)?.[1];
            expect(reference && reference in settings, `${id}: ${name}`).toBe(true);
            env[name] = settings[reference!]!;
          }
          expectRan(`${id}: ${step.run}`, await runCommands(id, [step.run!.trim()], folder, env));
        }
        const upload = steps.find((s) => s.uses?.startsWith('actions/upload-artifact'))!;
        const report = String(upload.with!.path).trim().split('\n')[0]!;
        const junit = await readFile(join(folder, report), 'utf8');
        expect(junit, id).toMatch(/<testsuites [^>]*failures="0"/);
      }
    } finally {
      await server.close();
    }
  }, 300_000);

  it("node-tests-example: npm install and npm test in the copy's examples/node-tests", async () => {
    const ran = await runCommands(
      'node-tests-example',
      commandsOf('node-tests-example'),
      join(kit, 'examples', 'node-tests'),
    );
    expectRan('node-tests-example', ran);
    expect(ran.stdout).toMatch(/Tests\s+\d+ passed/);
  }, 300_000);

  it('web-app-here: the mock and the Vite server of the example both answer', async () => {
    const [mockLine, viteLine] = commandsOf('web-app-here');
    const mock = await startCommand('web-app-here', mockLine!, kit, /Answers mock listening on/);
    running.push(mock);
    const vite = await startCommand('web-app-here', viteLine!, kit, /Local:\s+(http\S+)/);
    running.push(vite);
    const url = /Local:\s+(http\S+)/.exec(vite.output())![1]!;
    const page = await fetch(url);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('data-testid');
    expect((await fetch(new URL('/src/main.ts', url))).status).toBe(200);
    for (const server of running.splice(0)) await server.stop();
  }, 300_000);

  it('web-app-copy: the example copied beside the kit installs the tarball and serves', async () => {
    const copy = join(work, 'web-app');
    await cp(join(kit, 'examples', 'web-app'), copy, {
      recursive: true,
      filter: (source) => !source.includes('node_modules'),
    });
    const [install, init, mockLine, viteLine] = commandsOf('web-app-copy');
    expectRan('web-app-copy', await runCommands('web-app-copy', [install!, init!], copy));
    const mock = await startCommand('web-app-copy', mockLine!, copy, /Answers mock listening on/);
    running.push(mock);
    const vite = await startCommand('web-app-copy', viteLine!, copy, /Local:\s+(http\S+)/);
    running.push(vite);
    const url = /Local:\s+(http\S+)/.exec(vite.output())![1]!;
    expect((await fetch(url)).status).toBe(200);
    expect((await fetch(new URL('/src/main.ts', url))).status).toBe(200);
    await expect(readFile(join(copy, 'public', 'mockServiceWorker.js'), 'utf8')).resolves.toMatch(
      /INTEGRITY_CHECKSUM/,
    );
    for (const server of running.splice(0)) await server.stop();
  }, 300_000);

  it('ran every line of every shell block, and every inline command it says it runs', () => {
    const missing: string[] = [];
    for (const b of BLOCKS.filter((candidate) => candidate.lang === 'sh')) {
      for (const command of commandsOf(b.id!))
        if (!executed.has(`${b.id}\n${command}`)) missing.push(`${b.id}: ${command}`);
    }
    for (const [command, how] of Object.entries(INLINE)) {
      if (!how.startsWith('run: in') && !how.startsWith('run: shown')) continue;
      if (![...executed].some((entry) => entry.endsWith(`\n${command}`))) missing.push(command);
    }
    expect(missing).toEqual([]);
  });
});

interface WorkflowStep {
  run?: string;
  uses?: string;
  with?: Record<string, unknown>;
  env?: Record<string, string>;
}
