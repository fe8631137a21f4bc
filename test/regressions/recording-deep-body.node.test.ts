/**
 * Issue 46, found while fixing depth: a test file's recording (`createMock({ record })`, every
 * body kept) stringified a request body nested 100,000 deep to replace keys in it, and the
 * mock's entry threw "Maximum call stack size exceeded". A body deeper than the API takes is
 * answered 400 as before, and recorded without its body, marked so.
 */
import { expect, it } from 'vitest';
import { createMock } from '../../src/index.ts';
import { emptyState } from '../../src/seed/empty-state.ts';
import { KEYS } from '../support/keys.ts';

it('records a request nested 100,000 deep with its status, not its body, and answers it', async () => {
  const mock = await createMock({
    initialState: emptyState(),
    record: { testName: () => 'deep.test.ts > sends a deep body' },
  });
  const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
  const handled = await mock.handle({
    method: 'POST',
    path: '/api/answers/v1/collections',
    query: new URLSearchParams(),
    headers: new Headers({
      authorization: `Bearer ${KEYS.full}`,
      'content-type': 'application/json',
    }),
    body: new TextEncoder().encode(`{"name":"deep","metadata":{"a":${deep}}}`),
  });
  expect(handled.response.status).toBe(400);
  const [exchange] = mock.recording().sequences.flatMap((s) => s.exchanges);
  expect(exchange).toMatchObject({ method: 'POST', status: 400 });
  expect(exchange!.body).toBeUndefined();
});
