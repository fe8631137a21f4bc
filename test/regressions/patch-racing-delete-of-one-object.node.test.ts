import { it } from 'vitest';
import { replaySequence } from '../hardening/fuzz-model.ts';

// Found by test/hardening/fuzz/fuzz.node.test.ts ("random sequences", FUZZ_SEED=20261122
// FUZZ_RUNS=2000), shrunk by fast-check: PATCH racing DELETE of the same object answered 500
// (@msw/data "previous record not found").
// Fixed by running requests one at a time in createMock (src/core/create-mock.ts).
it('a patch racing a delete of the same object never answers 500', async () => {
  await replaySequence([
    { op: 'createCollection', as: 'acme', name: 'n0' },
    { op: 'createObject', as: 'acme', c: { live: 0 }, content: {} },
    {
      op: 'parallel',
      ops: [
        { op: 'patchObject', as: 'acme', o: { live: 0 }, patch: {} },
        { op: 'deleteObject', as: 'acme', o: { live: 0 } },
        { op: 'deleteObject', as: 'acme', o: { foreign: 0 } },
      ],
    },
  ]);
});
