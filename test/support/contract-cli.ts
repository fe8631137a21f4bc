/**
 * Runs the `answers-contract` bin bundled from the sources (test/support/bins.ts), as a CI owner
 * would run the installed one, with the environment cleared of the variables it reads (so a
 * developer's shell cannot change a test).
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { contractBin } from './bins.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const CLEAN_ENV = {
  ANSWERS_BASE_URL: '',
  ANSWERS_API_KEY: '',
  ANSWERS_CONTRACT_TARGET: '',
  ANSWERS_CONTRACT_DESTRUCTIVE: '',
  ANSWERS_CONTRACT_LEVEL: '',
  ANSWERS_CONTRACT_CONCURRENCY: '',
  ANSWERS_CONTRACT_SETTLE: '',
};

export function contract(args: string[], env: Record<string, string> = {}) {
  return new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile(
      process.execPath,
      contractBin(...args),
      { cwd: ROOT, env: { ...process.env, ...CLEAN_ENV, ...env }, timeout: 90_000 },
      (error, stdout, stderr) => {
        resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr });
      },
    );
  });
}
