/**
 * The `answers-mock` command as the engine tier's tests start it: the bundle of src/bin/answers-mock.ts
 * that scripts/bundle-bin.ts makes, as `npm run build` makes the published bin and `npm start` its
 * own, written once a run from the sources as they are (mock-bin.global-setup.ts). Started
 * through tsx it took about a second on Node 20, most of it loading and transforming some 150
 * modules; the bundle starts in about a quarter of that (docs/performance.md), and it is the form
 * a user runs.
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/**
 * Two folders below the repository root, as src/bin/ is: the bundle finds `../../openapi.yaml`
 * and `../../fixtures/` from there.
 */
export const MOCK_BIN_DIR = join(ROOT, '.tmp', 'bin');

/** The arguments of `process.execPath` that start `answers-mock` with `args`. */
export function mockBin(...args: string[]): string[] {
  return [join(MOCK_BIN_DIR, 'answers-mock.js'), ...args];
}
