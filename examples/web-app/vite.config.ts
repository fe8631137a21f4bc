import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';

/** The kit's repository, when this example runs inside it (`examples/web-app`). */
const repo = fileURLToPath(new URL('../../', import.meta.url));
const inRepo = existsSync(`${repo}src/browser/index.ts`);

/**
 * Serves msw's `mockServiceWorker.js` straight from the installed package, so it always matches
 * the installed msw. The usual alternative is to copy it once with `npx msw init public/ --save`.
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
  plugins: [mswWorkerScript()],
  // Inside the repository, `answers-mock-kit` is the kit's own source; in a copy, the package.
  resolve: inRepo
    ? {
        alias: [
          { find: /^answers-mock-kit$/, replacement: `${repo}src/index.ts` },
          { find: /^answers-mock-kit\/browser$/, replacement: `${repo}src/browser/index.ts` },
        ],
      }
    : {},
  server: inRepo ? { fs: { allow: [repo] } } : {},
});
