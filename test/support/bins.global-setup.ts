/**
 * The vitest global setup of the engine and deep tiers: bundles `answers-mock` and
 * `answers-contract` from the sources (test/support/bins.ts) before any file starts them, so that
 * every run starts the code as it is now (a few seconds, once a run), and again before each
 * rerun of watch mode, where an edit to src/ is what triggers it.
 */
import type { TestProject } from 'vitest/node';
import { bundleBin } from '../../scripts/bundle-bin.ts';
import { BIN_DIR, BINS } from './bins.ts';

async function bundle(): Promise<void> {
  for (const [name, entry] of Object.entries(BINS)) await bundleBin(BIN_DIR, name, { entry });
}

export default async function setup(project: TestProject): Promise<void> {
  await bundle();
  project.onTestsRerun(bundle);
}
