/**
 * The commands as the engine and deep tiers' tests start them: `answers-mock` and
 * `answers-contract` bundled from src/bin/ by scripts/bundle-bin.ts (as `npm run build` bundles
 * the published `answers-mock`, and `npm start` its own), written once a run from the sources as
 * they are (bins.global-setup.ts). Through tsx each start loaded and transformed some hundreds of
 * modules: on Node 20 about a second for `--help`, 3 s of CPU for `answers-contract --mock`; bundled,
 * a quarter to a half of that (docs/performance.md). The published form of each, installed from
 * the tarball, is what the install tier starts (test/package, test/new-user).
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/**
 * Two folders below the repository root, as src/bin/ is: the bundles find `../../openapi.yaml`
 * and `../../fixtures/` from there.
 */
export const BIN_DIR = join(ROOT, '.tmp', 'bin');

/** The bundles, by command, and the source each is made from. */
export const BINS = {
  'answers-mock': join(ROOT, 'src/bin/answers-mock.ts'),
  'answers-contract': join(ROOT, 'src/bin/answers-contract.ts'),
} as const;

/** The bundle of `command`, an absolute path. */
export function binPath(command: keyof typeof BINS): string {
  return join(BIN_DIR, `${command}.js`);
}

/** The arguments of `process.execPath` that start `answers-mock` with `args`. */
export function mockBin(...args: string[]): string[] {
  return [binPath('answers-mock'), ...args];
}

/** The arguments of `process.execPath` that start `answers-contract` with `args`. */
export function contractBin(...args: string[]): string[] {
  return [binPath('answers-contract'), ...args];
}
