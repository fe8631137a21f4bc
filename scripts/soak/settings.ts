/** The settings of `npm run soak`: where things are, how much traffic, and the limits and targets. */
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const TSX = fileURLToPath(
  new URL('../../node_modules/tsx/dist/loader.mjs', import.meta.url),
);
export const SERVER = fileURLToPath(new URL('server.ts', import.meta.url));
const QUICK = process.argv.includes('--quick');
export const WARMUP = 10_000;
export const AMOUNT = QUICK ? 20_000 : 200_000;
export const CONNECTIONS = 64;
/** Hard limits: a phase that has not finished by then is stopped and counted as a miss. */
export const WARMUP_LIMIT_MS = 60_000;
export const RUN_LIMIT_MS = QUICK ? 60_000 : 300_000;
export const MEMORY_TOLERANCE = 0.1;
export const KEY = 'answers_test_full_acme';
export const PREFIX = '/api/answers/v1';
