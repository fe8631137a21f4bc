import { playwright } from '@vitest/browser-playwright';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';
import { defineConfig } from 'vitest/config';
import { CHROMIUM_LAUNCH } from './test/support/chromium.ts';
import { LongestFirst } from './test/support/longest-first.ts';
import {
  BROWSER_TEST,
  foldersOf,
  nodeLineIncludes,
  projectsOf,
  TIERS,
  type Tier,
} from './test/tiers.ts';

/**
 * `ANSWERS_TESTS=node-line` (`npm run test:node-line`): of the fast and engine tiers, only what a
 * Node line can change (NODE_LINE, test/tiers.ts), which .ci/run runs again on Node 22 and 24.
 */
const NODE_LINE_ONLY = process.env.ANSWERS_TESTS === 'node-line';

/**
 * Serves msw's own `mockServiceWorker.js` at `/mockServiceWorker.js` for the browser tests, so the
 * worker script always matches the installed msw (no copy to keep in step).
 */
function mswWorkerScript(): Plugin {
  const file = createRequire(import.meta.url).resolve('msw/mockServiceWorker.js');
  return {
    name: 'msw-worker-script',
    configureServer(server) {
      server.middlewares.use('/mockServiceWorker.js', (_request, response) => {
        response.setHeader('content-type', 'text/javascript');
        response.end(readFileSync(file));
      });
    },
  };
}

/** The vitest projects of each tier (test/tiers.ts); Chromium's files are a project of their own. */
function tierProjects(tier: Tier) {
  const includes = (folders: string[]) =>
    NODE_LINE_ONLY && (tier === 'fast' || tier === 'engine')
      ? nodeLineIncludes(folders)
      : folders.map((folder) => `${folder}/*.test.ts`);
  return projectsOf(tier)
    .filter(({ folders }) => includes(folders).length > 0)
    .map(({ name, isolate, folders }) => ({
      extends: true as const,
      test: {
        name,
        environment: 'node',
        include: includes(folders),
        exclude: [`**/${BROWSER_TEST}`],
        isolate,
        // A bound against a hang, not a measure of speed: files run side by side, and a test that
        // starts a command can wait seconds for a core on a loaded 2-core machine.
        testTimeout: tier === 'fast' ? 5_000 : 30_000,
        hookTimeout: 30_000,
        // The install tier packs the kit once for all its files (test/new-user/packed-kit.ts).
        ...(tier === 'install'
          ? { globalSetup: ['test/new-user/packed-kit.global-setup.ts'], ...INSTALL_WORKERS }
          : {}),
        // The engine and deep tiers start the commands bundled from the sources (test/support/bins.ts).
        ...(tier === 'engine' || tier === 'deep'
          ? { globalSetup: ['test/support/bins.global-setup.ts'] }
          : {}),
      },
    }));
}

/**
 * Vitest's default is one worker fewer than the cores: on the 2-core machines of CI that is one,
 * and the run is serial. The tests keep their state per file, so files run side by side.
 */
const WORKERS = Math.max(2, availableParallelism() - 1);

/**
 * The install tier's files spend most of their time waiting for the commands they start (npm,
 * tsc, a browser), and three of them wait for the one pack of the kit (test/new-user/packed-kit.ts):
 * one worker more than the others keeps a file that is ready from waiting for a slot. Vitest
 * runs projects with a different worker count in groups of their own: the install tier's comes
 * after the others when a run selects them all.
 */
const INSTALL_WORKERS = { maxWorkers: WORKERS + 1, sequence: { groupOrder: 1 } };

export default defineConfig({
  // examples/node-tests (in the fast tier) runs as its users would run it, with the package name
  // pointing at this repository's sources instead of an installed copy.
  resolve: {
    alias: [
      {
        find: 'answers-mock-kit/node',
        replacement: fileURLToPath(new URL('./src/node/index.ts', import.meta.url)),
      },
      {
        find: /^answers-mock-kit$/,
        replacement: fileURLToPath(new URL('./src/index.ts', import.meta.url)),
      },
    ],
  },
  test: {
    maxWorkers: WORKERS,
    // The longest files first, so that none runs alone at the end (test/tiers.ts).
    sequence: { sequencer: LongestFirst },
    projects: [
      ...TIERS.flatMap(tierProjects),
      {
        extends: true,
        plugins: [mswWorkerScript()],
        test: {
          name: 'install-browser',
          ...INSTALL_WORKERS,
          include: foldersOf('install').map((folder) => `${folder}/${BROWSER_TEST}`),
          browser: {
            enabled: true,
            headless: true,
            provider: playwright({
              launchOptions: CHROMIUM_LAUNCH,
            }),
            instances: [{ browser: 'chromium' }],
          },
        },
      },
    ],
  },
});
