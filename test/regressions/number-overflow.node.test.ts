import { expect, it } from 'vitest';
import { assemble } from '../../src/assemble.ts';
import { validateResponse } from '../../src/openapi/response-validation.ts';

// Found by test/hardening/fuzz/fuzz.node.test.ts ("random requests", FUZZ_RUNS=2000), shrunk to
// POST .../objects {"content":{"n":1e400}}: valid JSON, but JSON.parse reads the number as
// Infinity, so the object was created (201) and stored and answered as {"n":null}: data silently
// changed. A number beyond the range of a double is now refused with 400 validation_failed,
// pointing at it (src/core/request-validation.ts); nothing is stored.
it('refuses a number too large for a double instead of storing null', async () => {
  const { mock, state } = await assemble();
  const [collection] = state.store.collectionsOf('acme');
  const path = `/api/answers/v1/collections/${collection!.id}/objects`;
  const before = state.store.objectCount(collection!.id);
  for (const [text, pointer] of [
    ['{"content":{"n":1e400}}', '/content/n'],
    ['{"content":{"a/b":[1,-1e999]}}', '/content/a~1b/1'],
  ] as const) {
    const { response } = await mock.handle({
      method: 'POST',
      path,
      query: new URLSearchParams(),
      headers: new Headers({
        authorization: 'Bearer answers_test_full_acme',
        'content-type': 'application/json',
      }),
      body: new TextEncoder().encode(text),
    });
    expect(response.status, text).toBe(400);
    const problem = JSON.parse(response.body!);
    expect(problem.code).toBe('validation_failed');
    expect(problem.errors).toEqual([expect.objectContaining({ location: 'body', pointer })]);
    expect(
      validateResponse('createObject', {
        status: response.status,
        headers: new Headers(response.headers),
        body: response.body!,
      }),
    ).toEqual([]);
  }
  expect(state.store.objectCount(collection!.id)).toBe(before);
});
