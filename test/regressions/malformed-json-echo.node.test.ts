import { expect, it } from 'vitest';
import { createMock } from '../../src/index.ts';

// Found by the hardening security tests: the malformed_json detail carried V8's SyntaxError
// message, which quotes up to 20 characters of the body ("Unexpected token 'r', "rk_1a2b3c"...
// is not valid JSON"), so a short key (or any secret) sent as a broken body came back in full.
it('never quotes the request body in a malformed_json detail', async () => {
  const mock = await createMock();
  const secret = 'rk_1a2b3c4d5e6f';
  for (const body of [secret, `{"a": ${secret}}`, `{"${secret}":x}`, `${secret}${secret}`]) {
    const { response } = await mock.handle({
      method: 'POST',
      path: '/api/answers/v1/collections',
      query: new URLSearchParams(),
      headers: new Headers({
        authorization: 'Bearer answers_test_full_acme',
        'content-type': 'application/json',
      }),
      body: new TextEncoder().encode(body),
    });
    expect(response.status).toBe(400);
    const problem = JSON.parse(response.body!) as { code: string; detail: string };
    expect(problem.code).toBe('malformed_json');
    expect(problem.detail).toMatch(/^The request body is not valid JSON: \S/);
    expect(problem.detail, body).not.toContain(secret.slice(0, 8));
  }
});
