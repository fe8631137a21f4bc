/**
 * The scratch layout of the documents' tests (the clone a new user has is made by
 * pack-in-clone.ts), port 4010 taken in turns, and the environment a CI owner's shell would have
 * for the local mock.
 */
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect } from 'vitest';
import { withDirLock } from '../support/dir-lock.ts';
import { scratchDir } from '../support/scratch.ts';
import type { Background } from './run-commands.ts';

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
 * The scratch layout of one documents' test file, with its hook registered in the calling
 * `describe`: `running` holds the servers its steps start, each inside holdingPort4010, which
 * stops them before it hands the port on (one a failed step left running would hold port 4010
 * for the next); `work()` is the scratch folder,
 * made by the first step and removed after the file. Clones and apps with their node_modules can
 * take a while to remove on a loaded disk (the 10 s default once timed out on Node 24).
 */
export function scratchLayout(prefix: string): {
  running: Background[];
  make: () => Promise<string>;
} {
  const running: Background[] = [];
  let work: string | undefined;
  // @note No afterEach stopping `running`: the files run some steps side by side (it.concurrent),
  // and a step that ends would stop the servers of one still running. Servers start only inside
  // holdingPort4010, one step at a time, and its `finally` stops them.
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
