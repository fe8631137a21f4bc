/**
 * The test author's project the README's TypeScript snippets are put in, as a user would put them:
 * the setup file of their msw major, the example's client and tests (whose regions are the
 * README's snippets), the quick-start setup, the express and browser snippets, and two files of
 * our own that prove an unclaimed request fails a test.
 */

/** The vitest projects: the app's tests, the quick-start setup, and the wrong-major control. */
export const VITEST_CONFIG = `import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      { test: { name: 'app', include: ['*.test.ts'] } },
      { test: { name: 'quick', include: ['quick/*.test.ts'], setupFiles: ['quick/setup.ts'] } },
      { test: { name: 'control', include: ['control/*.test.ts'] } },
    ],
  },
});
`;

const COMPILER_OPTIONS = {
  target: 'ES2022',
  lib: ['ES2022', 'DOM'],
  module: 'NodeNext',
  moduleResolution: 'NodeNext',
  strict: true,
  noEmit: true,
  // The example imports './setup.ts' by its own name, as vitest runs it.
  allowImportingTsExtensions: true,
  skipLibCheck: true,
  types: ['node'],
};

export const TSCONFIG = `${JSON.stringify(
  { compilerOptions: COMPILER_OPTIONS, include: ['*.ts', 'quick/*.ts'] },
  null,
  2,
)}\n`;

/** The control folder alone: its setup file carries the other major's option. */
export const TSCONFIG_CONTROL = `${JSON.stringify(
  { compilerOptions: COMPILER_OPTIONS, include: ['control/*.ts'] },
  null,
  2,
)}\n`;

export const QUICK_TEST = `import { expect, it } from 'vitest';

it('answers on a loopback origin with the quick-start setup', async () => {
  const response = await fetch('http://localhost/api/answers/v1/collections', {
    headers: { authorization: 'Bearer answers_test_full_acme' },
  });
  expect(response.status).toBe(200);
  expect(((await response.json()) as { data: unknown[] }).data.length).toBeGreaterThan(0);
});
`;

export const EXPRESS_TEST = `import type { AddressInfo } from 'node:net';
import { expect, it } from 'vitest';
import { app } from './express-app.ts';

it('serves the API from the express app of the README', async () => {
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  try {
    const { port } = server.address() as AddressInfo;
    const response = await fetch(\`http://127.0.0.1:\${port}/api/answers/v1/collections\`, {
      headers: { authorization: 'Bearer answers_test_full_acme' },
    });
    expect(response.status).toBe(200);
  } finally {
    server.close();
  }
});
`;

/**
 * An unclaimed request must fail the test: a server on loopback that msw would let it reach if
 * the unhandled-request option were ignored. `setup` is the path of the setup file to use.
 */
export function unhandledTest(setup: string): string {
  return `import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, expect, it } from 'vitest';
import '${setup}';

const local = createServer((_request, response) => response.end('reached the network'));
afterAll(() => local.close());

it('fails a request that the mock does not claim', async () => {
  await new Promise<void>((resolve) => local.listen(0, '127.0.0.1', resolve));
  const { port } = local.address() as AddressInfo;
  await expect(fetch(\`http://127.0.0.1:\${port}/\`)).rejects.toThrow();
});
`;
}
