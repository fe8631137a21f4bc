import { expect, it } from 'vitest';
import { createMock } from '../../src/index.ts';
import { emptyState } from '../../src/seed/empty-state.ts';
import { send } from '../hardening/fuzz-support.ts';

const KEY = 'answers_test_full_acme';

// Found by the random sequences of test/hardening/fuzz (FUZZ_SEED=3 FUZZ_RUNS=2000), shrunk by
// fast-check: two concurrent creates with the same name both got 201: a duplicate name in one
// account (and an export that no longer loads).
// Fixed by running requests one at a time in createMock (src/core/create-mock.ts).
it('concurrent creates of one name: one 201, one 409', async () => {
  const mock = await createMock({ initialState: emptyState });
  const answers = await Promise.all([
    send(mock, KEY, 'POST', '/collections', { name: 'n1' }),
    send(mock, KEY, 'POST', '/collections', { name: 'n1' }),
  ]);
  expect(answers.map((a) => a.status).sort()).toEqual([201, 409]);
  const list = await send(mock, KEY, 'GET', '/collections');
  expect(list.json.data.map((c: { name: string }) => c.name)).toEqual(['n1']);
  await expect(mock.controls.load(mock.controls.export())).resolves.toBeUndefined();
});
