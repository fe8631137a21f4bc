import type { StartedTarget } from '../contract/cli.ts';
import { assemble } from '../assemble.ts';
import { isFaultName, withFault } from '../faults/index.ts';
import { startServer } from '../node/server.ts';
import { DEV_KEYS } from '../seed/dev-keys.ts';

/**
 * Starts the bundled mock (default seed) on a free loopback port for `answers-contract --mock`,
 * optionally with one deliberate defect (the kit's own tests prove every check can fail).
 */
export async function startMockTarget(fault?: string): Promise<StartedTarget> {
  if (fault !== undefined && !isFaultName(fault)) throw new RangeError(`unknown fault "${fault}"`);
  const server = await startServer({
    mock: (await assemble({}, fault === undefined ? undefined : withFault(fault))).mock,
    port: 0,
    quiet: true,
  });
  return { baseUrl: `${server.url}/api/answers/v1`, keys: MOCK_KEYS, stop: () => server.close() };
}

const key = (id: string) => DEV_KEYS.find((k) => k.key === id)!.key;

/** The bundled mock's development keys, by role: what a recording or HAR of it presented. */
export const MOCK_KEYS = {
  full: key('answers_test_full_acme'),
  readonly: key('answers_test_readonly_acme'),
  otherAccount: key('answers_test_full_globex'),
  inactive: key('answers_test_inactive_acme'),
};

export { startExploreModel } from '../node/explore-model.ts';
