import { playwright } from '@vitest/browser-playwright';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';
import { defineConfig } from 'vitest/config';
import { CHROMIUM_LAUNCH } from './test/support/chromium.ts';

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

export default defineConfig({
  test: {
    projects: [
      {
        // examples/node-tests runs as its users would run it, with the package name pointing at
        // this repository's sources instead of an installed copy.
        extends: true,
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
          name: 'examples',
          environment: 'node',
          include: ['examples/node-tests/*.test.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'node',
          environment: 'node',
          include: ['test/**/*.test.ts'],
          exclude: ['test/**/*.browser.test.ts'],
        },
      },
      {
        extends: true,
        plugins: [mswWorkerScript()],
        test: {
          name: 'browser',
          include: ['test/**/*.browser.test.ts'],
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
