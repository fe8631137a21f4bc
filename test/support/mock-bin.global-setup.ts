/**
 * The vitest global setup of the engine tier: bundles the `answers-mock` command from the sources
 * (test/support/mock-bin.ts) before any file starts it, so that every run starts the code as it
 * is now (about 2 s, once a run).
 */
import { bundleBin } from '../../scripts/bundle-bin.ts';
import { MOCK_BIN_DIR } from './mock-bin.ts';

export default async function setup(): Promise<void> {
  await bundleBin(MOCK_BIN_DIR, 'answers-mock');
}
