/**
 * The independent server as explore's model (issue 35: one sequence engine): explore then judges
 * the kit's own mock, as the target, by a server written without the mock's code. It is how the
 * mock's random sequences are checked (test/hardening/fuzz/sequences.node.test.ts), in place of a
 * hand-kept model of the API.
 */
import { fileURLToPath } from 'node:url';
import type { ExploreModel } from '../../src/contract/explore/explore.ts';
import { loadTargetFile } from '../../src/contract/target-api/load.ts';
import { startIndependentServer } from './server.ts';

const described = loadTargetFile(fileURLToPath(new URL('target.yaml', import.meta.url)));

/** An empty independent server (no seed), emptied again before each sequence. */
export async function startIndependentModel(): Promise<ExploreModel> {
  const server = await startIndependentServer();
  server.empty();
  return {
    baseUrl: server.url,
    keys: server.keys,
    description: await described,
    reset: async () => server.empty(),
    stop: () => server.close(),
  };
}
