/** The settings of `npm run bench`: where things are, the key, and how long and how big (`--quick`). */
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const TSX = fileURLToPath(
  new URL('../../node_modules/tsx/dist/loader.mjs', import.meta.url),
);
export const PRISM = createRequire(import.meta.url).resolve('@stoplight/prism-cli/dist/index.js');
/** json-server's command line (1.x, a devDependency): a baseline of the throughput bench. */
export const JSON_SERVER = fileURLToPath(import.meta.resolve('json-server/lib/bin.js'));
export const KEY = 'answers_test_full_acme';
/** The four dev keys of the seed, by the role the suite, explore and replay give them. */
export const KEYS = {
  full: KEY,
  readonly: 'answers_test_readonly_acme',
  otherAccount: 'answers_test_full_globex',
  inactive: 'answers_test_inactive_acme',
};
export const QUICK = process.argv.includes('--quick');
/** `--mock-from <checkout>` (repeatable): another checkout's mock measured beside this one. */
export const MOCKS_FROM = process.argv.flatMap((arg, i) =>
  arg === '--mock-from' && process.argv[i + 1] ? [process.argv[i + 1]!] : [],
);
/** `--shape <name>` (repeatable): the throughput bench's request shapes to measure; default all. */
export const SHAPES = process.argv.flatMap((arg, i) =>
  arg === '--shape' && process.argv[i + 1] ? [process.argv[i + 1]!] : [],
);
export const DURATION = QUICK ? 2 : 5;
export const SIZES = QUICK ? [1_000, 10_000] : [1_000, 100_000, 1_000_000];
