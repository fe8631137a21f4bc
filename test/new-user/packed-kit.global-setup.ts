/**
 * The vitest global setup of the install projects: the folder the kit is packed in once for the
 * whole run (test/new-user/packed-kit.ts), provided to the test files as `kitPackDir`.
 *
 * With ANSWERS_KIT_PACK_DIR set (.ci/run sets it, so that its msw 3 pass installs the tarball its
 * msw 2 pass packed), that folder is used and left to whoever set it. Otherwise the first install
 * project to start makes a scratch folder, the others of the same run use it, and it is removed
 * when the run ends.
 */
import { rm } from 'node:fs/promises';
import type { TestProject } from 'vitest/node';
import { scratchDir } from '../support/scratch.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The folder of test/new-user/packed-kit.ts, shared by the install projects of a run. */
    kitPackDir: string;
  }
}

export const KIT_PACK_DIR = 'ANSWERS_KIT_PACK_DIR';

export default async function setup(project: TestProject): Promise<(() => Promise<void>) | void> {
  const given = process.env[KIT_PACK_DIR];
  if (given) {
    project.provide('kitPackDir', given);
    return;
  }
  // The first project of the run: the other install project finds the folder in the variable.
  const made = await scratchDir('answers-kit-pack-');
  process.env[KIT_PACK_DIR] = made;
  project.provide('kitPackDir', made);
  return async () => {
    delete process.env[KIT_PACK_DIR];
    await rm(made, { recursive: true, force: true });
  };
}
