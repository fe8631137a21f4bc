import type { StartedTarget } from '../contract/cli.ts';
import { assemble } from '../assemble.ts';
import { isFaultName, withFault } from '../faults/index.ts';
import { startServer } from '../node/server.ts';
import { DEV_KEYS_BY_ROLE } from '../seed/dev-keys.ts';

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
  return {
    baseUrl: `${server.url}/api/answers/v1`,
    keys: DEV_KEYS_BY_ROLE,
    stop: () => server.close(),
  };
}

export { startExploreModel } from '../node/explore-model.ts';
