import { it } from 'vitest';
import { replaySequence } from '../hardening/fuzz-model.ts';

// Found by test/hardening/fuzz/fuzz.node.test.ts ("random sequences", FUZZ_SEED=4 FUZZ_RUNS=2000),
// shrunk by fast-check: a rename racing an object create answered a count that matched no serial
// order.
// Fixed by running requests one at a time in createMock (src/core/create-mock.ts).
it('a rename racing an object create answers a serialisable count', async () => {
  await replaySequence([
    { op: 'createCollection', as: 'globex', name: 'n0' },
    {
      op: 'parallel',
      ops: [
        { op: 'renameCollection', as: 'globex', c: { live: 0 }, name: 'n0' },
        { op: 'createObject', as: 'globex', c: { live: 0 }, content: {} },
        { op: 'getCollection', as: 'acme', c: { foreign: 0 } },
      ],
    },
    { op: 'createCollection', as: 'acme', name: 'n0' },
  ]);
});
