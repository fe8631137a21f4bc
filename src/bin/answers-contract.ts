#!/usr/bin/env node
// The `answers-contract` command of the installed package (dist/src/bin/answers-contract.js):
// the suite, assembled with the bundled mock as its `--mock` target (loaded only when asked for).
import { runCli } from '../contract/cli.ts';

await runCli(process.argv, {
  startMock: async (fault) => (await import('./mock-target.ts')).startMockTarget(fault),
  startExploreModel: async () => (await import('./mock-target.ts')).startExploreModel(),
  mockKeys: async () => (await import('../seed/dev-keys.ts')).DEV_KEYS_BY_ROLE,
  startSnapshotStore: async () => (await import('../node/snapshot-store.ts')).startSnapshotStore(),
  serveSnapshot: async (file) => (await import('../node/snapshot-store.ts')).serveSnapshot(file),
});
