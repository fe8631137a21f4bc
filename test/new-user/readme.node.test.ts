/**
 * The README is executable: every fenced block of the README and of the examples' READMEs carries
 * a `<!-- doc-test: id -->` marker, and each is run exactly as a user types it. Here, the blocks
 * of a new user whose app already has msw, the ones the app's msw major changes: a copy of this
 * repository (`answers-mock-kit/`) and the app beside it (`your-app/`), the kit installed from the
 * tarball the README's own line packs (run once for the tier and both msw majors:
 * test/new-user/packed-kit.ts). test/clone/readme.node.test.ts runs the blocks of the
 * repository itself (set-up, the vendored tarball and its workflow, the examples), once. The npx lines run through the
 * machine's npm (11) and npm 10; the TypeScript snippets are compiled with tsc and run with vitest
 * against msw 2 on Node 20 and msw 3 on Node 22.12 and later (.ci/run runs this file once per msw major: Node 20 and Node 24).
 * A line that is not run is named in its block's marker, with the reason; the last test proves
 * that every other line of its blocks ran. What needs no install (markers, regions, reasons) is checked in
 * test/docs/readme.node.test.ts.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readDocument, ROOT } from '../docs/doc-blocks.ts';
import { block, commandsOf, INLINE, SHELL_BLOCKS_RUN_BY } from '../docs/readme-plan.ts';
import { holdingPort4010, KEYS, notRun, scratchLayout } from './layout.ts';
import { packedKitFor, withTarball, type PackedKit } from './packed-kit.ts';
import { executed, expectRan, runCommands, startCommand } from './run-commands.ts';
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

const DATA_TEST = readDocument('examples/node-tests/data.test.ts');

/** Setup of the app for this msw major: the README's msw 2 file, with msw 3's line where it differs. */
function setupFor(major: string): string {
  const setup = block('node-setup-msw2').body;
  if (major === '2') return setup;
  return setup.replace(
    "beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));\n",
    block('node-setup-msw3').body,
  );
}

describe(`the documents, followed by a new user (msw ${MSW}, Node ${process.versions.node})`, () => {
  let work: string;
  let kit: string;
  let app: string;
  /** PATH with npm 10's npm and npx first. */
  let npm10Path: string;
  /** The kit packed by the `install` block's first line (packed-kit.ts), and the block's rest. */
  let packing: Promise<{ kit: PackedKit; rest: string[] }>;
  const { running, make } = scratchLayout('answers-docs-');

  it('lays out a copy of the kit and an app that already has msw', async () => {
    work = await make();
    kit = join(work, 'answers-mock-kit');
    app = join(work, 'your-app');
    // The install block's first line, `npm ci && npm pack` in a fresh clone, runs once for the
    // whole tier (packed-kit.ts): begun here, beside the app's own install, awaited by the next
    // test. (Its failure is that test's; the copy here only keeps it from being unhandled.)
    packing = packedKitFor('install');
    packing.catch(() => undefined);
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

  it('install: packs the kit and installs the tarball into the app beside it', async () => {
    const { kit: packed, rest } = await packing;
    // The copy of the kit holds the tarball its first line wrote; the next line runs there.
    await withTarball(kit, packed);
    expectRan('install', await runCommands('install', rest, kit));
    const manifest = JSON.parse(await readFile(join(app, 'package.json'), 'utf8'));
    expect(manifest.devDependencies['answers-mock-kit']).toBe(
      'file:../answers-mock-kit/answers-mock-kit-0.1.0.tgz',
    );
    const mswVersion = JSON.parse(
      await readFile(join(app, 'node_modules', 'msw', 'package.json'), 'utf8'),
    ).version as string;
    expect(mswVersion.split('.')[0]).toBe(MSW);
  }, 400_000);

  it('installs the optional peers the prose names (faker, swagger-ui-dist)', async () => {
    for (const command of [
      'npm install --save-dev @faker-js/faker@10',
      'npm install --save-dev swagger-ui-dist@5',
    ])
      expectRan(command, await runCommands('inline', [command], app));
  }, 300_000);

  // The next two side by side: neither changes the app's files or node_modules, and only the
  // second listens on port 4010 (npx's --mock run serves on a port of its own). Most of their
  // time is npm exec and Node starting, one core each.
  it.concurrent(
    'npx: the form without -- fails on npm 11 and 10; with it, the bins answer',
    async () => {
      // npm 11 and npm 10 side by side: each runs its own commands, and --mock its own mock.
      await Promise.all(
        [process.env.PATH!, npm10Path].map(async (path) => {
          const wrong = await runCommands('inline', ['npx --no answers-contract --help'], app, {
            PATH: path,
          });
          expect(wrong.stdout + wrong.stderr).toMatch(/npm exec/); // npx's own help, not the bin's
          for (const bin of ['answers-contract', 'answers-mock']) {
            const right = await runCommands('npx', [`npx --no -- ${bin} --help`], app, {
              PATH: path,
            });
            expectRan(bin, right);
            expect(right.stdout).toContain(`Usage: ${bin}`);
          }
          const sweepHelp = await runCommands(
            'npx',
            ['npx --no -- answers-contract sweep --help'],
            app,
            { PATH: path },
          );
          expect(sweepHelp.stdout).toMatch(/--older-than <duration>\s+only runs/);
          const mock = await runCommands('inline', ['npx --no -- answers-contract --mock'], app, {
            PATH: path,
          });
          expectRan('--mock', mock);
          expect(mock.stdout).toMatch(/\d+ passed, 0 failed/);
        }),
      );
    },
    300_000,
  );

  it.concurrent(
    'frontend, CI owner and control lines: against npx --no -- answers-mock on port 4010',
    async () => {
      await holdingPort4010(running, async () => {
        const [start, ...rest] = commandsOf('frontend');
        const server = await startCommand('frontend', start!, app, /Answers mock listening on \S+/);
        running.push(server);
        // Installed, the banner names no file of the kit's own folder.
        expect(server.output()).not.toContain('fixtures/');
        expect(server.output()).toMatch(/Docs\s+\S+\/docs\s+\(Swagger UI/);
        // The inspector's address, and its files served from the installed kit.
        expect(server.output()).toMatch(/Inspect\s+http:\/\/127\.0\.0\.1:4010\/__mock\/ui\s/);
        for (const path of ['/__mock/ui', '/__mock/ui/inspector.js', '/__mock/ui/inspector.css'])
          expect((await fetch(`http://127.0.0.1:4010${path}`)).status).toBe(200);

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
        // The README's word: the clauses within reach, reached where they could have failed, at
        // least as many as --min-coverage 90 asks (the run exits 0 only then).
        const covered = /^Coverage: (\d+) of (\d+) clauses \((\d+)%\)/m.exec(explored.stdout);
        expect(Number(covered?.[3])).toBeGreaterThanOrEqual(90);
        const reports = await runCommands('html-reports', commandsOf('html-reports'), app);
        expectRan('html-reports', reports);
        await expect(readFile(join(app, 'contract.html'), 'utf8')).resolves.toContain(
          'data-verdict="PASSED at level spec"',
        );
        await expect(readFile(join(app, 'explore.html'), 'utf8')).resolves.toContain(
          'data-verdict="AGREED"',
        );
        const sweep = await runCommands(
          'inline',
          ['npx --no -- answers-contract sweep --older-than 1h'],
          app,
          { ...KEYS, ANSWERS_BASE_URL: `${root}/api/answers/v1` },
        );
        expectRan('sweep', sweep);

        // The snapshot block: the mock on 4010 stands for staging; its copy serves on 4011.
        const [snap, serveCopy] = commandsOf('snapshot');
        const snapped = await runCommands('snapshot', [snap!], app, {
          ...KEYS,
          ANSWERS_BASE_URL: `${root}/api/answers/v1`,
        });
        expectRan('snapshot', snapped);
        expect(snapped.stdout).toMatch(/^Snapshot of \S+: [1-9]\d* collections, [1-9]\d* objects/m);
        const copy = await startCommand(
          'snapshot',
          serveCopy!,
          app,
          /Answers mock listening on \S+/,
        );
        running.push(copy);
        const listOf = async (origin: string) =>
          (
            (await (
              await fetch(`${origin}/api/answers/v1/collections?limit=100`, {
                headers: { authorization: 'Bearer answers_test_full_acme' },
              })
            ).json()) as { data: Array<{ name: string }> }
          ).data
            .map((each) => each.name)
            .sort();
        expect(await listOf('http://127.0.0.1:4011')).toEqual(await listOf(root));
        running.splice(running.indexOf(copy), 1);
        await copy.stop();

        // The nightly diff block, on two nights: the first writes the baseline, the second
        // compares with it; the mock on 4010 is staging, unchanged, so nothing is new.
        const staging = { ...KEYS, ANSWERS_BASE_URL: `${root}/api/answers/v1` };
        for (const night of [1, 2]) {
          const nightly = await runCommands(
            'nightly-diff',
            commandsOf('nightly-diff'),
            app,
            staging,
          );
          expectRan('nightly-diff', nightly);
          expect(nightly.stdout).toMatch(/^Result: PASSED: no new differences at --fail-on spec$/m);
          expect(nightly.stdout).toMatch(
            night === 1
              ? /^Baseline: diff-baseline\.json \(not there yet/m
              : /^Baseline: diff-baseline\.json$/m,
          );
        }
        await expect(readFile(join(app, 'diff.xml'), 'utf8')).resolves.toMatch(
          /<testsuites name="answers-contract diff"/,
        );

        // The journal live: the curl line prints the events of the requests above (the journal
        // holds them) and then each new one.
        const stream = await startCommand(
          'journal-stream',
          commandsOf('journal-stream')[0]!,
          app,
          /event: hello[\s\S]*event: request/,
        );
        await stream.stop();
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
      });
    },
    400_000,
  );

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

  it('ran every line of its shell blocks, and every inline command it says it runs', () => {
    const missing = notRun(SHELL_BLOCKS_RUN_BY['test/new-user'], commandsOf, executed);
    for (const [command, how] of Object.entries(INLINE)) {
      if (!how.startsWith('run: in') && !how.startsWith('run: shown')) continue;
      if (![...executed].some((entry) => entry.endsWith(`\n${command}`))) missing.push(command);
    }
    expect(missing).toEqual([]);
  });
});
