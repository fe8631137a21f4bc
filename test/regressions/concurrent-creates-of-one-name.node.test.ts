import { it } from 'vitest';
import { replaySequence } from '../hardening/fuzz-model.ts';

// Found by test/hardening/fuzz/fuzz.node.test.ts ("random sequences", FUZZ_SEED=3 FUZZ_RUNS=2000),
// shrunk by fast-check: two concurrent creates with the same name both got 201: a duplicate name in
// one account (and an export that no longer loads).
// Fixed by running requests one at a time in createMock (src/core/create-mock.ts).
it('concurrent creates of one name: one 201, one 409', async () => {
  await replaySequence([
    {
      op: 'parallel',
      ops: [
        { op: 'createCollection', as: 'acme', name: 'n1' },
        { op: 'createCollection', as: 'acme', name: 'n1' },
      ],
    },
  ]);
});
