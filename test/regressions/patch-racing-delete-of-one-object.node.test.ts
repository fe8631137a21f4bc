import { expect, it } from 'vitest';
import { createMock } from '../../src/index.ts';
import { emptyState } from '../../src/seed/empty-state.ts';
import { send } from '../hardening/fuzz-support.ts';

const KEY = 'answers_test_full_acme';

// Found by the random sequences of test/hardening/fuzz (FUZZ_SEED=20261122 FUZZ_RUNS=2000), shrunk
// by fast-check: PATCH racing DELETE of the same object answered 500 (@msw/data "previous record
// not found").
// Fixed by running requests one at a time in createMock (src/core/create-mock.ts).
it('a patch racing a delete of the same object never answers 500', async () => {
  const mock = await createMock({ initialState: emptyState });
  const collection = (await send(mock, KEY, 'POST', '/collections', { name: 'n0' })).json;
  const base = `/collections/${collection.id}/objects`;
  const object = (await send(mock, KEY, 'POST', base, { content: {} })).json;
  const [patched, deleted, foreign] = await Promise.all([
    send(mock, KEY, 'PATCH', `${base}/${object.id}`, { content: {} }),
    send(mock, KEY, 'DELETE', `${base}/${object.id}`),
    send(mock, 'answers_test_full_globex', 'DELETE', `${base}/${object.id}`),
  ]);
  expect(deleted.status).toBe(204);
  expect([200, 404]).toContain(patched.status);
  expect(foreign.status).toBe(404);
  expect((await send(mock, KEY, 'GET', `${base}/${object.id}`)).status).toBe(404);
  expect(mock.controls.export().objects).toEqual([]);
});
