/**
 * The repository's own blocks, run exactly as typed (see test/new-user/readme.node.test.ts for the
 * markers): a fresh clone's `npm ci` and `npm start` (README, set-up), a clone a CI owner
 * reviewed, packed and vendored into their repository (examples/ci, ci-vendor), whose workflow
 * steps then run, and the examples run in that clone (node-tests-example, web-app-here,
 * web-app-copy). Nothing here depends on the msw major of an app, so .ci/run runs it once. The
 * clone is the one the tier packs the kit in once, a fresh clone of the tracked files where
 * `npm ci && npm pack` ran as typed (ci-vendor's first line, the same as the README's install
 * line, and set-up's `npm ci` is its first command: test/new-user/packed-kit.ts).
 */
import { cp, mkdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { createMock } from '../../src/index.ts';
import { startServer, type RunningServer } from '../../src/node/server.ts';
import { ROOT } from '../docs/doc-blocks.ts';
import { block, commandsOf, SHELL_BLOCKS_RUN_BY } from '../docs/readme-plan.ts';
import { holdingPort4010, KEYS, notRun, scratchLayout } from '../new-user/layout.ts';
import { packedKitAfterNpmCi, packedKitFor } from '../new-user/packed-kit.ts';
import { executed, expectRan, runCommands, startCommand } from '../new-user/run-commands.ts';

describe(`a clone of the kit, followed as typed (Node ${process.versions.node})`, () => {
  let work: string;
  /**
   * The clone the tier's pack line ran in (test/new-user/packed-kit.ts): `set-up` starts the mock
   * there, `ci-vendor` packs there, with `your-repo/` made beside it.
   */
  let kit: string;
  let repo: string;
  const { running, make } = scratchLayout('answers-clone-');

  it('lays out a folder for the checkouts of the workflows', async () => {
    work = await make();
  }, 120_000);

  // The two blocks that begin with `npm ci`, both in the clone the pack line ran in, side by side.
  // Only set-up listens (on port 4010, held from the other files of the tier while it does).
  it.concurrent(
    'set-up: npm ci, then npm start serves the seed and stops on Ctrl-C',
    async () => {
      // @note Its `npm ci` is the pack line's first command, run as typed in a fresh clone of the
      // same files; `npm start` is the first start there (its bundle is made, as in any clone).
      const { kit: packed, rest } = await packedKitAfterNpmCi('set-up');
      const [start] = rest;
      await holdingPort4010(running, async () => {
        const server = await startCommand(
          'set-up',
          start!,
          packed.clone,
          /Answers mock listening on (\S+)/,
        );
        running.push(server);
        const response = await fetch('http://127.0.0.1:4010/api/answers/v1/collections', {
          headers: { authorization: 'Bearer answers_test_full_acme' },
        });
        expect(response.status).toBe(200);
        // Ctrl-C: npm passes the signal on and ends by it (a shell shows 130); the mock stops
        // cleanly.
        running.splice(running.indexOf(server), 1);
        await server.stop();
        expect(server.output()).toMatch(/stopped\s*$/);
      });
    },
    400_000,
  );

  it.concurrent(
    'ci-vendor: packs the kit in a reviewed clone and copies the tarball to the vendor folder',
    async () => {
      // Its first line, `npm ci && npm pack` in a fresh clone, ran once for the tier: the
      // reviewed clone is the one it ran in. The lines after it run there as typed.
      const { kit: packed, rest } = await packedKitFor('ci-vendor');
      kit = packed.clone;
      repo = join(kit, '..', 'your-repo');
      // Beside the shared clone: what a run before this one in the same folder left is removed.
      for (const leftover of [repo, join(kit, '..', 'web-app')])
        await rm(leftover, { recursive: true, force: true });
      await mkdir(join(repo, 'vendor'), { recursive: true });
      expectRan('ci-vendor', await runCommands('ci-vendor', rest, kit));
    },
    400_000,
  );

  // @note Between the two groups: vitest runs consecutive concurrent tests side by side, and
  // what follows needs the vendored clone.
  it('ci-vendor left the tarball in the vendor folder', async () => {
    await expect(
      readFile(join(repo, 'vendor', 'answers-mock-kit-0.1.0.tgz')),
    ).resolves.toBeTruthy();
  });

  // The four blocks run in the reviewed clone, side by side (most of their time is npm and
  // Vite starting); the two that listen on port 4010 take turns on it.

  it.concurrent(
    'workflow: the run steps of the README and of examples/ci/contract.yml write a green JUnit report',
    async () => {
      const workflows: Array<[string, string]> = [
        ['workflow', block('workflow').body],
        ['contract.yml', await readFile(join(ROOT, 'examples/ci/contract.yml'), 'utf8')],
      ];
      // The two workflows side by side, each in its own checkout against a deployment of its own.
      await Promise.all(
        workflows.map(async ([id, text]) => {
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
              expectRan(
                `${id}: ${step.run}`,
                await runCommands(id, [step.run!.trim()], folder, env),
              );
            }
            const upload = steps.find((s) => s.uses?.startsWith('actions/upload-artifact'))!;
            const report = String(upload.with!.path).trim().split('\n')[0]!;
            const junit = await readFile(join(folder, report), 'utf8');
            expect(junit, id).toMatch(/<testsuites [^>]*failures="0"/);
          } finally {
            await server.close();
          }
        }),
      );
    },
    300_000,
  );

  it.concurrent(
    "node-tests-example: npm install and npm test in the copy's examples/node-tests, then its tests recorded and replayed",
    async () => {
      const ran = await runCommands(
        'node-tests-example',
        commandsOf('node-tests-example'),
        join(kit, 'examples', 'node-tests'),
      );
      expectRan('node-tests-example', ran);
      expect(ran.stdout).toMatch(/Tests\s+\d+ passed/);
      // Its tests recorded, then replayed against a server that adopted openapi.yaml (the
      // kit's mock, on a port of its own): every test agrees, nothing is left.
      const server = await startServer({ mock: await createMock(), port: 0, quiet: true });
      try {
        const replayed = await runCommands(
          'node-tests-replay',
          commandsOf('node-tests-replay'),
          join(kit, 'examples', 'node-tests'),
          {
            ANSWERS_BASE_URL: `${server.url}/api/answers/v1`,
            ANSWERS_API_KEY: 'answers_test_full_acme',
            ANSWERS_READONLY_KEY: 'answers_test_readonly_acme',
          },
        );
        expectRan('node-tests-replay', replayed);
        expect(replayed.stdout).toMatch(/✓ collections\.test\.ts > .* \(\d+ judged\)/);
        // Tests of only forced answers or seeded data judge nothing: counted apart, never agreed.
        expect(replayed.stdout).toMatch(
          / agreed, 0 diverged, 0 not replayed(, \d+ judged nothing)?\./,
        );
        expect(replayed.stdout).toContain('Left behind: nothing');
      } finally {
        await server.close();
      }
    },
    300_000,
  );

  it.concurrent(
    'web-app-here: the mock and the Vite server of the example both answer',
    async () => {
      const [mockLine, viteLine] = commandsOf('web-app-here');
      await holdingPort4010(running, async () => {
        const mock = await startCommand(
          'web-app-here',
          mockLine!,
          kit,
          /Answers mock listening on/,
        );
        running.push(mock);
        const vite = await startCommand('web-app-here', viteLine!, kit, /Local:\s+(http\S+)/);
        running.push(vite);
        const url = /Local:\s+(http\S+)/.exec(vite.output())![1]!;
        const page = await fetch(url);
        expect(page.status).toBe(200);
        expect(await page.text()).toContain('data-testid');
        expect((await fetch(new URL('/src/main.ts', url))).status).toBe(200);
      });
    },
    300_000,
  );

  it.concurrent(
    'web-app-copy: the example copied beside the kit installs the tarball and serves',
    async () => {
      const copy = join(kit, '..', 'web-app'); // beside the kit, as the block's path says
      await cp(join(kit, 'examples', 'web-app'), copy, {
        recursive: true,
        filter: (source) => !source.includes('node_modules'),
      });
      const [install, init, mockLine, viteLine] = commandsOf('web-app-copy');
      expectRan('web-app-copy', await runCommands('web-app-copy', [install!, init!], copy));
      await holdingPort4010(running, async () => {
        const mock = await startCommand('web-app-copy', mockLine!, copy, /Answers mock listening/);
        running.push(mock);
        const vite = await startCommand('web-app-copy', viteLine!, copy, /Local:\s+(http\S+)/);
        running.push(vite);
        const url = /Local:\s+(http\S+)/.exec(vite.output())![1]!;
        expect((await fetch(url)).status).toBe(200);
        expect((await fetch(new URL('/src/main.ts', url))).status).toBe(200);
      });
      await expect(readFile(join(copy, 'public', 'mockServiceWorker.js'), 'utf8')).resolves.toMatch(
        /INTEGRITY_CHECKSUM/,
      );
    },
    300_000,
  );

  it('ran every line of its shell blocks', () => {
    expect(notRun(SHELL_BLOCKS_RUN_BY['test/clone'], commandsOf, executed)).toEqual([]);
  });
});

interface WorkflowStep {
  run?: string;
  uses?: string;
  with?: Record<string, unknown>;
  env?: Record<string, string>;
}
