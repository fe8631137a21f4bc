import { expect, it } from 'vitest';
import { createMock } from '../../src/index.ts';

// Found by the hardening catalogue: `Content-Type: application/json; charset=iso-8859-1` was
// accepted and the bytes decoded as UTF-8 anyway (mojibake stored, or a misleading
// malformed_json). GAP-MEDIA allows only charset=utf-8; any other charset is now 415.
it('refuses a JSON body declared in a charset other than UTF-8 with 415', async () => {
  const mock = await createMock();
  const post = async (contentType: string, name: string) =>
    (
      await mock.handle({
        method: 'POST',
        path: '/api/answers/v1/collections',
        query: new URLSearchParams(),
        headers: new Headers({
          authorization: 'Bearer answers_test_full_acme',
          'content-type': contentType,
        }),
        body: new TextEncoder().encode(JSON.stringify({ name })),
      })
    ).response;
  for (const charset of ['iso-8859-1', 'utf-16', 'latin1', '"windows-1252"']) {
    const response = await post(`application/json; charset=${charset}`, `c ${charset}`);
    expect(response.status, charset).toBe(415);
    expect(JSON.parse(response.body!)).toMatchObject({ code: 'unsupported_media_type' });
  }
  for (const charset of ['utf-8', 'UTF-8', '"utf-8"']) {
    expect((await post(`application/json; charset=${charset}`, `ok ${charset}`)).status).toBe(201);
  }
  expect((await post('application/json', 'no charset')).status).toBe(201);
});
