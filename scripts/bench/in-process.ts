/** One API request straight to a mock's `handle`, for the in-process benches; throws on >= 300. */
import type { AnswersMock } from '../../src/index.ts';
import { KEY } from './settings.ts';

export async function call(mock: AnswersMock, method: string, path: string, body?: unknown) {
  const headers = new Headers({ authorization: `Bearer ${KEY}` });
  if (body !== undefined) headers.set('content-type', 'application/json');
  const { response } = await mock.handle({
    method,
    path: `/api/answers/v1${path}`,
    query: new URLSearchParams(),
    headers,
    body: body === undefined ? undefined : new TextEncoder().encode(JSON.stringify(body)),
  });
  if (response.status >= 300) throw new Error(`${method} ${path}: ${response.status}`);
  return response.body ? JSON.parse(response.body) : undefined;
}
