/**
 * The scratch layout of the documents' tests: clones of this repository as a new user has them,
 * and the environment a CI owner's shell would have for the local mock.
 */
import { execFileSync } from 'node:child_process';
import { cp } from 'node:fs/promises';
import { join } from 'node:path';
import { expect } from 'vitest';
import { ROOT } from '../docs/doc-blocks.ts';

/** Copies the files a clone has (the tracked ones, as they are in this working tree) to `to`. */
export async function cloneInto(to: string): Promise<void> {
  const tracked = execFileSync('git', ['ls-files', '-z'], { cwd: ROOT, encoding: 'utf8' })
    .split('\0')
    .filter(Boolean);
  for (const file of tracked) await cp(join(ROOT, file), join(to, file), { recursive: true });
}

/**
 * The README's commands name port 4010: a mock a developer left running there would answer in
 * place of the one these lines start.
 */
export async function expectPort4010Free(): Promise<void> {
  const taken = await fetch('http://127.0.0.1:4010/').then(
    () => true,
    () => false,
  );
  expect(taken, 'port 4010 is in use: stop what listens there (npm start?)').toBe(false);
}

/** The environment a CI owner's shell would have, for the local mock on port 4010. */
export const KEYS = {
  ANSWERS_API_KEY: 'answers_test_full_acme',
  ANSWERS_READONLY_KEY: 'answers_test_readonly_acme',
  ANSWERS_OTHER_ACCOUNT_KEY: 'answers_test_full_globex',
  ANSWERS_INACTIVE_KEY: 'answers_test_inactive_acme',
};

/** Every shell line of `ids` that `executed` does not hold. */
export function notRun(
  ids: readonly string[],
  commandsOf: (id: string) => string[],
  executed: ReadonlySet<string>,
): string[] {
  return ids.flatMap((id) =>
    commandsOf(id)
      .filter((command) => !executed.has(`${id}\n${command}`))
      .map((command) => `${id}: ${command}`),
  );
}
