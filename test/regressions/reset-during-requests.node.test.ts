import { expect, it } from 'vitest';
import { createMock } from '../../src/index.ts';
import { emptyState } from '../../src/seed/empty-state.ts';

// Found while hardening concurrency: `controls.reset()` (and `load()`) interleaved with requests
// in flight. A collection created concurrently with a reset was written into the freshly cleared
// store, so "back to the starting data" kept it, and requests answered from a half-loaded state.
// Fixed by running resets and loads in the same one-at-a-time queue as requests (create-mock.ts).
it('a reset racing requests ends in exactly the starting data', async () => {
  const mock = await createMock({ initialState: emptyState, now: '2026-11-22T12:00:00.000Z' });
  const create = (name: string) =>
    mock.handle({
      method: 'POST',
      path: '/api/answers/v1/collections',
      query: new URLSearchParams(),
      headers: new Headers({
        authorization: 'Bearer answers_test_full_acme',
        'content-type': 'application/json',
      }),
      body: new TextEncoder().encode(JSON.stringify({ name })),
    });
  const [before, , after] = await Promise.all([
    create('before'),
    mock.controls.reset(),
    create('after'),
  ]);
  expect([before.response.status, after.response.status]).toEqual([201, 201]);
  // Requests run in call order: "before" was undone by the reset, "after" came after it.
  expect(mock.controls.export().collections.map((c) => c.name)).toEqual(['after']);
  await mock.controls.reset();
  expect(mock.controls.export().collections).toEqual([]);
});
