/**
 * The package as its users get it: the tarball the README's `npm ci && npm pack` makes in a fresh
 * clone (which builds dist/ in prepack; packed once for the install tier,
 * test/new-user/packed-kit.ts), publint and attw on it, then a separate project in the system
 * temp dir that installs the tarball from the npm cache and uses every entry point, the types, a
 * vitest suite and both bins. Nothing in the consumer points into this repository.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { lstat, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scratchDir } from '../support/scratch.ts';
import { CHECKS } from '../../src/contract/checks/index.ts';
import { defaultState } from '../../src/seed/default-state.ts';
import { packedKit } from '../new-user/packed-kit.ts';
import { BIN, childEnv, expectOk, run, type Ran } from './commands.ts';
import { consumerFiles } from './consumer-project.ts';
import { publicDeclarations } from './public-declarations.ts';
import { installKitBesideMsw, installScripts, type KitInstall } from './install-footprint.ts';

/**
 * The declaration files reachable from the entry points (`package/public-declarations.ts`):
 * issue 27 brought them from 47 (12 of them the store's, the search index's and the mock's
 * state) to 38 with none; `explore` from code added three (its options and report, the keys
 * and steps it names, and the model `answers-mock-kit/node` starts); the clause ids of
 * docs/spec-gaps.md one (`generated/clauses`: the ClauseId a check's failure names); the
 * operationIds of openapi.yaml one (`generated/operations`: the OperationName a description
 * takes, generated since issue 36); the recording a Node test setup writes one
 * (`openapi/recording`: its format, issue 37); the judging core five (issue 47: the verdict a
 * check keeps, the first difference a failure names, a status's absence, a walk's reach and the
 * key names, which a check's context and a report name); this holds them there.
 */
const MAX_PUBLIC_DECLARATIONS = 54;
/** Declaration files of internals: the store's classes, the search index, the mock's state. */
const INTERNAL =
  /core\/(search\/|store\/(store|mock-state|object-list|collection-index|clock|id-sequence)\.d\.ts|read-cache|mock-internals)/;

let work: string;
let consumer: string;
let tarball: string;
let publint: Ran;
let attw: Ran;
let lean: KitInstall;

/**
 * The msw major the consumer app already has: 3 where it runs (Node 22.12 and later), else 2. CI
 * runs this file on Node 20 and on Node 24, so both majors are installed beside the kit.
 */
const [major, minor] = process.versions.node.split('.').map(Number) as [number, number];
const MSW = major > 22 || (major === 22 && minor >= 12) ? '3' : '2';

/** The first page (20 by default) of acme's collections in the seed the bin serves. */
const ACME_FIRST_PAGE = defaultState.collections
  .filter((collection) => collection.account_id === 'acme')
  .slice(0, 20)
  .map((collection) => collection.id);

describe('the packed package, installed in a separate project', () => {
  beforeAll(async () => {
    work = await scratchDir('answers-mock-kit-package-');
    consumer = join(work, 'consumer');

    tarball = (await packedKit()).tarball;

    for (const [file, text] of Object.entries(consumerFiles(MSW))) {
      await mkdir(join(consumer, file, '..'), { recursive: true });
      await writeFile(join(consumer, file), text);
    }
    const [installed, publinted, attwed] = await Promise.all([
      run(
        'npm',
        [
          'install',
          tarball,
          'typescript@5.9.3',
          'vitest@4.1.12',
          'openapi-fetch@0.17.0',
          // The app's own msw: the kit takes it as a peer instead of bringing a copy.
          `msw@${MSW}`,
          // Optional peers, used only by ./express and by the factories: installed as their
          // users would.
          'express@5.3.0',
          '@faker-js/faker@10.6.0',
          '--prefer-offline',
          '--no-audit',
          '--no-fund',
          '--ignore-scripts',
        ],
        consumer,
      ),
      run(join(BIN, 'publint'), ['run', tarball, '--strict'], work),
      run(
        join(BIN, 'attw'),
        [tarball, '--profile', 'esm-only', '--exclude-entrypoints', './openapi.yaml', '-f', 'json'],
        work,
      ),
    ]);
    expectOk('npm install', installed);
    publint = publinted;
    attw = attwed;
    lean = await installKitBesideMsw(work, tarball, MSW);
  }, 500_000);

  afterAll(async () => {
    if (work) await rm(work, { recursive: true, force: true });
  });

  it('passes publint --strict and attw --profile esm-only without a problem', () => {
    expect(publint.code, publint.stdout + publint.stderr).toBe(0);
    expect(publint.stdout).toContain('All good!');
    expect(attw.code, attw.stdout.slice(0, 4000) + attw.stderr).toBe(0);
    const report = JSON.parse(attw.stdout) as {
      analysis: { entrypoints: Record<string, unknown> };
      problems: Record<string, Array<{ resolutionKind?: string }>>;
    };
    expect(Object.keys(report.analysis.entrypoints).sort()).toEqual(
      ['.', './browser', './contract', './express', './node', './package.json'].sort(),
    );
    // The esm-only profile leaves out the CommonJS resolutions (node10, node16 from CJS).
    const counted = Object.values(report.problems)
      .flat()
      .filter((p) => p.resolutionKind !== 'node10' && p.resolutionKind !== 'node16-cjs');
    expect(counted).toEqual([]);
  });

  it('is installed from the tarball, without tsx, Prism or Swagger UI', async () => {
    const installed = join(consumer, 'node_modules', 'answers-mock-kit');
    expect((await lstat(installed)).isSymbolicLink()).toBe(false);
    for (const name of ['tsx', '@stoplight/prism-cli', 'swagger-ui-dist', '@scarf/scarf']) {
      await expect(lstat(join(consumer, 'node_modules', name)), name).rejects.toMatchObject({
        code: 'ENOENT',
      });
    }
  });

  it(`publishes at most ${MAX_PUBLIC_DECLARATIONS} declaration files, none of the store's internals`, async () => {
    const root = join(consumer, 'node_modules', 'answers-mock-kit');
    const reached = await publicDeclarations(root);
    expect(reached.length, reached.join('\n')).toBeLessThanOrEqual(MAX_PUBLIC_DECLARATIONS);
    // The store, its search index and the mock's state stay behind controls and mock.db.
    expect(reached.filter((file) => INTERNAL.test(file))).toEqual([]);
  });

  it('holds each file once, and no test or build leftover', async () => {
    const root = join(consumer, 'node_modules', 'answers-mock-kit');
    const files = (await readdir(root, { recursive: true, withFileTypes: true }))
      .filter((entry) => entry.isFile())
      .map((entry) => join(entry.parentPath, entry.name).slice(root.length + 1));
    expect(files.filter((file) => /(^|\/)openapi\.yaml$/.test(file))).toEqual([
      'dist/openapi.yaml',
    ]);
    expect(
      files.filter((file) =>
        /(^|\/)(test|tests|coverage|\.tmp)\/|\.test\.[jt]s$|\.map$|\.tsbuildinfo$/.test(file),
      ),
    ).toEqual([]);
    // Files of 1 kB and more, by their bytes: two names for the same bytes is a duplicate.
    const byContent = new Map<string, string[]>();
    for (const file of files) {
      const bytes = await readFile(join(root, file));
      if (bytes.length < 1024) continue;
      const hash = createHash('sha256').update(bytes).digest('hex');
      byContent.set(hash, [...(byContent.get(hash) ?? []), file]);
    }
    expect([...byContent.values()].filter((names) => names.length > 1)).toEqual([]);
  });

  it(`adds at most 25 packages and 30 MB to a project that already has msw ${MSW}`, () => {
    const mb = (bytes: number) => (bytes / 1e6).toFixed(1);
    const names = lean.added.map((entry) => entry.path.replace(/^node_modules\//, ''));
    // @note Printed for the record (docs/package.md keeps the figures of each Node line).
    console.log(
      `installing the kit beside msw ${MSW} (Node ${process.versions.node}) adds ${lean.added.length} packages, ` +
        `${mb(lean.growth.diskBytes)} MB on disk (${(lean.growth.diskBytes / 2 ** 20).toFixed(1)} MiB), ` +
        `${mb(lean.growth.fileBytes)} MB in ${lean.growth.files} files: ${names.sort().join(', ')}`,
    );
    expect(names).toContain('answers-mock-kit');
    expect(lean.added.length).toBeLessThanOrEqual(25);
    // @note Both the bytes of the files (what npm and the registry report as unpackedSize) and
    // the space taken on disk, which depends on the block size: es-toolkit (of @msw/data) is
    // 4.6 MB in 4,325 files, 19.1 MB in 4 KiB blocks. faker (4 MB on disk) is an optional peer,
    // needed only by the factories and --seed/--size. docs/package.md keeps both figures.
    expect(lean.growth.fileBytes).toBeLessThanOrEqual(30e6);
    expect(lean.growth.diskBytes).toBeLessThanOrEqual(30e6);
  });

  it('runs no install script: none of the packages it adds has one, and npm ran none', async () => {
    const withScripts: Array<{ path: string; scripts: Record<string, string> }> = [];
    for (const entry of lean.added) {
      const scripts = await installScripts(lean.project, entry.path);
      if (entry.hasInstallScript || Object.keys(scripts).length > 0) {
        withScripts.push({ path: entry.path, scripts });
      }
    }
    expect(withScripts).toEqual([]);
    // With --foreground-scripts npm shows each script it runs as "> name@version event".
    expect(lean.output).not.toMatch(/^> \S+@\S+ (preinstall|install|postinstall)$/m);
  });

  it('imports every Node entry point with plain node', async () => {
    const script = `
      const names = async (s) => Object.keys(await import(s)).sort();
      console.log(JSON.stringify({
        root: await names('answers-mock-kit'),
        node: await names('answers-mock-kit/node'),
        express: await names('answers-mock-kit/express'),
        contract: await names('answers-mock-kit/contract'),
        checks: (await import('answers-mock-kit/contract')).CHECKS.length,
        resolved: ['', '/node', '/express', '/contract', '/openapi.yaml'].map((s) =>
          import.meta.resolve('answers-mock-kit' + s)),
      }));`;
    const ran = await run(process.execPath, ['--input-type=module', '-e', script], consumer);
    expectOk('node -e', ran);
    const found = JSON.parse(ran.stdout) as Record<string, string[]> & { checks: number };
    expect(found.root).toEqual(
      expect.arrayContaining(['createMock', 'createHandlers', 'defaultState', 'DEV_KEYS']),
    );
    expect(found.node).toEqual(
      expect.arrayContaining(['setupAnswersServer', 'startServer', 'createServer', 'createMock']),
    );
    expect(found.express).toEqual(['createAnswersRouter']);
    expect(found.contract).toEqual(
      expect.arrayContaining(['runContract', 'CHECKS', 'formatReport', 'toJUnit', 'TargetError']),
    );
    expect(found.checks).toBe(CHECKS.length); // the build ships every check of the sources
    for (const url of found.resolved!) {
      expect(url.startsWith(`file://${consumer}/node_modules/answers-mock-kit/`), url).toBe(true);
    }
  });

  it('serves ./browser only under the browser condition, and ./node never there', async () => {
    const resolve = `console.log(import.meta.resolve('answers-mock-kit/browser'))`;
    const browser = await run(
      process.execPath,
      ['--conditions=browser', '--input-type=module', '-e', resolve],
      consumer,
    );
    expectOk('resolve ./browser', browser);
    expect(browser.stdout.trim()).toBe(
      `file://${consumer}/node_modules/answers-mock-kit/dist/src/browser/index.js`,
    );
    const inNode = await run(process.execPath, ['--input-type=module', '-e', resolve], consumer);
    expect(inNode.code).not.toBe(0);
    expect(inNode.stderr).toContain('ERR_PACKAGE_PATH_NOT_EXPORTED');
    const nodeInBrowser = await run(
      process.execPath,
      [
        '--conditions=browser',
        '--input-type=module',
        '-e',
        `await import('answers-mock-kit/node')`,
      ],
      consumer,
    );
    expect(nodeInBrowser.code).not.toBe(0);
    expect(nodeInBrowser.stderr).toContain('ERR_PACKAGE_PATH_NOT_EXPORTED');
  });

  it('type-checks an openapi-fetch client on the published types, and catches a type error', async () => {
    const tsc = join(consumer, 'node_modules', 'typescript', 'bin', 'tsc');
    const ran = await run(
      process.execPath,
      [tsc, '-p', 'tsconfig.json', '--pretty', 'false'],
      consumer,
    );
    // Exactly one error, the deliberate one in types/wrong.ts; types/client.ts is clean.
    const errors = ran.stdout.split('\n').filter((line) => line.includes('error TS'));
    expect(errors, ran.stdout + ran.stderr).toHaveLength(1);
    expect(errors[0]).toMatch(/^types\/wrong\.ts\(6,\d+\): error TS2322: .*number/);
    expect(ran.code).toBe(2);
  }, 180_000);

  it(`uses the app's own msw ${MSW}, not a copy, and the worker script msw init writes is its own`, async () => {
    // The msw the kit's own files resolve is the app's top-level copy (other tools may nest one
    // of their own: vitest's mocker takes msw 2 as an optional peer).
    const resolved = await run(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `import { createRequire } from 'node:module';
         const kit = createRequire(process.cwd() + '/node_modules/answers-mock-kit/package.json');
         console.log(kit.resolve('msw/package.json'));`,
      ],
      consumer,
    );
    expectOk('resolve msw from the kit', resolved);
    const app = join(consumer, 'node_modules', 'msw', 'package.json');
    expect(resolved.stdout.trim()).toBe(app);
    const { version } = JSON.parse(await readFile(app, 'utf8')) as { version: string };
    expect(version.split('.')[0]).toBe(MSW);
    const init = await run(
      process.execPath,
      [join(consumer, 'node_modules', 'msw', 'cli', 'index.js'), 'init', 'public', '--no-save'],
      consumer,
    );
    expectOk('msw init', init);
    // The kit's browser entry imports msw/browser from the same copy, so the script msw checks
    // the worker against (its integrity checksum) is the one init wrote.
    const written = await readFile(join(consumer, 'public', 'mockServiceWorker.js'), 'utf8');
    const own = await readFile(
      join(consumer, 'node_modules', 'msw', 'lib', 'mockServiceWorker.js'),
      'utf8',
    );
    expect(written).toBe(own);
    expect(written).toMatch(/INTEGRITY_CHECKSUM = '[0-9a-f]+'/);
  }, 120_000);

  it('runs a vitest suite with answers-mock-kit/node', async () => {
    const vitest = join(consumer, 'node_modules', 'vitest', 'vitest.mjs');
    const ran = await run(process.execPath, [vitest, 'run', '--reporter=verbose'], consumer);
    expectOk('vitest in the consumer', ran);
    expect(ran.stdout).toContain('lists collections, deletes one with its objects and searches');
    expect(ran.stdout).toMatch(/Tests\s+1 passed/);
  }, 180_000);

  it('starts the installed answers-mock bin, serves with a key, refuses without, stops on SIGTERM', async () => {
    const child = spawn(
      join(consumer, 'node_modules', '.bin', 'answers-mock'),
      ['--port', '0', '--quiet'],
      {
        cwd: consumer,
        env: childEnv(),
      },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exit = new Promise<number | null>((resolve) => child.once('close', resolve));
    try {
      const base = await new Promise<string>((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`no banner in 30 s\n${stdout}\n${stderr}`)),
          30_000,
        );
        const look = () => {
          const match = /^Answers mock listening on (http:\/\/127\.0\.0\.1:\d+)$/m.exec(stdout);
          if (match) {
            clearTimeout(timer);
            resolve(match[1]!);
          }
        };
        child.stdout.on('data', look);
        void exit.then((code) => {
          clearTimeout(timer);
          reject(new Error(`exited with ${code}\n${stdout}\n${stderr}`));
        });
      });
      const url = `${base}/api/answers/v1/collections`;
      const authorized = await fetch(url, {
        headers: { authorization: 'Bearer answers_test_full_acme' },
      });
      expect(authorized.status).toBe(200);
      const page = (await authorized.json()) as { data: Array<{ id: string }> };
      expect(page.data.map((collection) => collection.id)).toEqual(ACME_FIRST_PAGE);
      const anonymous = await fetch(url);
      expect(anonymous.status).toBe(401);
      expect(anonymous.headers.get('www-authenticate')).toMatch(/^Bearer/);
      // The contract and the docs page come from the installed files: without the optional
      // swagger-ui-dist, /docs is the kit's own reference page.
      expect((await fetch(`${base}/openapi.yaml`)).status).toBe(200);
      const docs = await fetch(`${base}/docs`);
      expect(docs.status).toBe(200);
      const reference = await docs.text();
      expect(reference).toContain('<section class="op" id="listCollections">');
      expect(reference).toContain('npm install --save-dev swagger-ui-dist@5');
      child.kill('SIGTERM');
      expect(await exit).toBe(0);
      expect(stdout.trimEnd()).toMatch(/stopped$/);
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
  }, 60_000);

  it('runs the installed answers-contract bin against the bundled mock', async () => {
    const ran = await run(
      join(consumer, 'node_modules', '.bin', 'answers-contract'),
      ['--mock'],
      consumer,
    );
    expect(ran.code, ran.stdout.slice(-3000) + ran.stderr).toBe(0);
    expect(ran.stdout).toMatch(/\d+ passed, 0 failed, 0 skipped/);
  }, 120_000);
});
