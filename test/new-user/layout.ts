/**
 * The scratch layout of the documents' tests: clones of this repository as a new user has them,
 * and the environment a CI owner's shell would have for the local mock.
 */
import { execFileSync } from 'node:child_process';
import { cp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, expect } from 'vitest';
import { ROOT } from '../docs/doc-blocks.ts';
import { withDirLock } from '../support/dir-lock.ts';
import { scratchDir } from '../support/scratch.ts';
import type { Background } from './run-commands.ts';

/** Copies the files a clone has (the tracked ones, as they are in this working tree) to `to`. */
export async function cloneInto(to: string): Promise<void> {
  const tracked = execFileSync('git', ['ls-files', '-z'], { cwd: ROOT, encoding: 'utf8' })
    .split('\0')
    .filter(Boolean);
  for (const file of tracked) await cp(join(ROOT, file), join(to, file), { recursive: true });
}

/** Who holds port 4010 among the install tier's test files. */
const LOCK = join(tmpdir(), 'answers-mock-kit-port-4010.lock');

/**
 * Runs `body` while this process alone may listen on port 4010, which the README's commands
 * name. The install tier's files run side by side, and two of them start the mock there: each
 * waits for the other's steps on the port, not for its whole file. A lock whose process is gone
 * (a killed run) is taken over, and the servers `body` left in `running` are stopped before the
 * port is handed on. Inside, the port must be free: a mock a developer left running
 * there would answer in place of the one these lines start.
 */
export function holdingPort4010<T>(running: Background[], body: () => Promise<T>): Promise<T> {
  return withDirLock(LOCK, async () => {
    try {
      const taken = await fetch('http://127.0.0.1:4010/').then(
        () => true,
        () => false,
      );
      expect(taken, 'port 4010 is in use: stop what listens there (npm start?)').toBe(false);
      return await body();
    } finally {
      // What a failed step left listening is stopped before the port is handed on.
      for (const server of running.splice(0)) await server.stop();
    }
  });
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

/**
 * The scratch layout of one documents' test file, with its hooks registered in the calling
 * `describe`: `running` holds the servers its steps start, each stopped after its test (one a
 * failed step left running would hold port 4010 for the next); `work()` is the scratch folder,
 * made by the first step and removed after the file. Clones and apps with their node_modules can
 * take a while to remove on a loaded disk (the 10 s default once timed out on Node 24).
 */
export function scratchLayout(prefix: string): {
  running: Background[];
  make: () => Promise<string>;
} {
  const running: Background[] = [];
  let work: string | undefined;
  afterEach(async () => {
    for (const server of running.splice(0)) await server.stop();
  });
  afterAll(async () => {
    if (work) await rm(work, { recursive: true, force: true });
  }, 180_000);
  return {
    running,
    make: async () => {
      work = await scratchDir(prefix);
      return work;
    },
  };
}
