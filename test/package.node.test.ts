/**
 * The package as its users get it: `npm pack` (which builds dist/ in prepack), publint and attw on
 * the tarball, then a separate project in the system temp dir that installs the tarball from the
 * npm cache and uses every entry point, the types, a vitest suite and both bins. Nothing in the
 * consumer points into this repository.
 */
import { execFile, spawn } from 'node:child_process';
import { lstat, mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const BIN = join(ROOT, 'node_modules', '.bin');

interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * The environment of every child: without the variables of an enclosing `npm test` or vitest
 * (npm_config_local_prefix would point a nested npm at this repo), without colours, never
 * downloading browsers.
 */
function childEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (/^(npm_|INIT_CWD$|VITEST|TINYPOOL|FORCE_COLOR$|PORT$|HOST$)/i.test(name)) {
      if (!/^npm_config_(cache|registry)$/i.test(name)) continue;
    }
    env[name] = value;
  }
  return {
    ...env,
    PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1',
    SCARF_ANALYTICS: 'false',
    NO_COLOR: '1',
    CI: 'true',
  };
}

/** Runs a command to its end (bounded by `timeout`); never rejects. */
function run(command: string, args: string[], cwd: string, timeout = 180_000): Promise<Ran> {
  return new Promise((resolve) => {
    execFile(
      command,
      args,
      { cwd, env: childEnv(), timeout, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const code = error ? ((error as { code?: unknown }).code ?? null) : 0;
        resolve({ code: typeof code === 'number' ? code : null, stdout, stderr });
      },
    );
  });
}

function expectOk(what: string, ran: Ran): void {
  if (ran.code !== 0) {
    throw new Error(`${what} exited with ${ran.code}\n${ran.stdout.slice(-4000)}\n${ran.stderr}`);
  }
}

let work: string;
let consumer: string;
let tarball: string;
let publint: Ran;
let attw: Ran;

const CONSUMER_FILES: Record<string, string> = {
  'package.json': `${JSON.stringify({ name: 'consumer', private: true, type: 'module' })}\n`,
  'tsconfig.json': `${JSON.stringify({
    compilerOptions: {
      target: 'ES2022',
      lib: ['ES2022', 'DOM'],
      module: 'NodeNext',
      moduleResolution: 'NodeNext',
      strict: true,
      noEmit: true,
      // Checks the published .d.ts files too: every type they import must resolve.
      skipLibCheck: false,
      types: [],
    },
    include: ['types'],
  })}\n`,
  'types/client.ts': `import createClient from 'openapi-fetch';
import type { components, paths } from 'answers-mock-kit';

const client = createClient<paths>({ baseUrl: 'http://127.0.0.1:4010/api/answers/v1' });

export async function firstObjectCount(): Promise<number> {
  const { data, error } = await client.GET('/collections', {
    params: { query: { limit: 10 } },
    headers: { authorization: 'Bearer answers_test_full_acme' },
  });
  if (error) throw new Error(error.title);
  const count: number = data.data[0].object_count;
  return count;
}

export const collection: Pick<components['schemas']['Collection'], 'name'> = { name: 'FAQ' };
`,
  // A deliberate type error: the check above must be able to fail.
  'types/wrong.ts': `import createClient from 'openapi-fetch';
import type { paths } from 'answers-mock-kit';

const client = createClient<paths>({ baseUrl: 'http://127.0.0.1:4010/api/answers/v1' });
const { data } = await client.GET('/collections');
export const count: string | undefined = data?.data[0]?.object_count;
`,
  'test/mock.test.ts': `import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { setupAnswersServer } from 'answers-mock-kit/node';

const API = 'http://localhost/api/answers/v1';
const headers = {
  authorization: 'Bearer answers_test_full_acme',
  'content-type': 'application/json',
};

const { mock, server } = await setupAnswersServer({ now: '2026-01-01T00:00:00.000Z' });
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => mock.controls.reset());
afterAll(() => server.close());

async function search(query: string): Promise<{ total: number; data: Array<{ collection_id: string }> }> {
  const response = await fetch(\`\${API}/search\`, { method: 'POST', headers, body: JSON.stringify({ query }) });
  expect(response.status).toBe(200);
  return response.json();
}

it('lists collections, deletes one with its objects and searches', async () => {
  const listed = await fetch(\`\${API}/collections\`, { headers });
  expect(listed.status).toBe(200);
  const [first] = ((await listed.json()) as { data: Array<{ id: string }> }).data;
  expect(first).toBeDefined();
  const created = await fetch(\`\${API}/collections/\${first!.id}/objects\`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ content: { title: 'zephyrine quokka' } }),
  });
  expect(created.status).toBe(201);
  expect(await search('zephyrine')).toMatchObject({ total: 1, data: [{ collection_id: first!.id }] });

  const deleted = await fetch(\`\${API}/collections/\${first!.id}\`, { method: 'DELETE', headers });
  expect(deleted.status).toBe(204);
  expect((await fetch(\`\${API}/collections/\${first!.id}\`, { headers })).status).toBe(404);
  expect((await search('zephyrine')).total).toBe(0);
});
`,
};

describe('the packed package, installed in a separate project', () => {
  beforeAll(async () => {
    work = await realpath(await mkdtemp(join(tmpdir(), 'answers-mock-kit-package-')));
    consumer = join(work, 'consumer');

    const packed = await run('npm', ['pack', '--json', '--pack-destination', work], ROOT);
    expectOk('npm pack', packed);
    tarball = join(work, (JSON.parse(packed.stdout) as Array<{ filename: string }>)[0]!.filename);

    for (const [file, text] of Object.entries(CONSUMER_FILES)) {
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
  }, 400_000);

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

  it('is installed from the tarball, without tsx or Prism', async () => {
    const installed = join(consumer, 'node_modules', 'answers-mock-kit');
    expect((await lstat(installed)).isSymbolicLink()).toBe(false);
    await expect(lstat(join(consumer, 'node_modules', 'tsx'))).rejects.toThrow();
    await expect(
      lstat(join(consumer, 'node_modules', '@stoplight', 'prism-cli')),
    ).rejects.toThrow();
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
    expect(found.checks).toBeGreaterThan(0);
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
      expect(((await authorized.json()) as { data: unknown[] }).data.length).toBeGreaterThan(0);
      const anonymous = await fetch(url);
      expect(anonymous.status).toBe(401);
      expect(anonymous.headers.get('www-authenticate')).toMatch(/^Bearer/);
      // The contract and the docs page come from the installed files.
      expect((await fetch(`${base}/openapi.yaml`)).status).toBe(200);
      child.kill('SIGTERM');
      expect(await exit).toBe(0);
      expect(stdout.trimEnd().endsWith('stopped')).toBe(true);
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
