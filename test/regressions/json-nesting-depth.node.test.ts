import { describe, expect, it, vi } from 'vitest';
import { createMock } from '../../src/index.ts';
import { MAX_JSON_DEPTH } from '../../src/core/http.ts';

// Found by the hardening catalogue: a body nested a few thousand levels deep (well under 1 MiB)
// overflowed the stack after the object had been stored: 500 internal_error, yet the object
// counted, and from then on PATCH of it and every state export (GET /__mock/state,
// --state-file) failed with "Maximum call stack size exceeded". Depth is now limited (400).
const KEY = 'answers_test_full_acme';

/** `{"content":{...}}` nested `levels` deep in total (the body object is level 1). */
function nested(levels: number): string {
  const inner = levels - 1;
  return `{"content":${'{"a":'.repeat(inner - 1)}{"leaf":1}${'}'.repeat(inner - 1)}}`;
}

describe('JSON nesting depth', () => {
  it('refuses a deep body with 400 validation_failed and changes nothing', async () => {
    const mock = await createMock();
    const collection = mock.controls.export().collections[0]!;
    const path = `/api/answers/v1/collections/${collection.id}/objects`;
    const send = (method: string, url: string, body: string) =>
      mock.handle({
        method,
        path: url,
        query: new URLSearchParams(),
        headers: new Headers({
          authorization: `Bearer ${KEY}`,
          'content-type': 'application/json',
        }),
        body: new TextEncoder().encode(body),
      });
    const before = mock.controls.export();
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      for (const levels of [MAX_JSON_DEPTH + 1, 5_000, 100_000]) {
        const { response, internal } = await send('POST', path, nested(levels));
        expect(internal).toBeUndefined();
        expect(response.status).toBe(400);
        expect(JSON.parse(response.body!)).toMatchObject({ code: 'validation_failed' });
      }
      const arrays = await send(
        'POST',
        path,
        `{"content":{"a":${'['.repeat(100_000)}${']'.repeat(100_000)}}}`,
      );
      expect(arrays.response.status).toBe(400);
    } finally {
      errors.mockRestore();
    }
    expect(mock.controls.export()).toEqual(before);

    const atLimit = await send('POST', path, nested(MAX_JSON_DEPTH));
    expect(atLimit.response.status).toBe(201);
    const id = (JSON.parse(atLimit.response.body!) as { id: string }).id;
    const patched = await send('PATCH', `${path}/${id}`, nested(MAX_JSON_DEPTH));
    expect(patched.response.status).toBe(200);
    const stored = mock.controls.export().objects.find((o) => o.id === id);
    expect(stored?.content).toEqual(JSON.parse(nested(MAX_JSON_DEPTH)).content);
  });
});
