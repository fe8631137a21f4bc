/** `mock.controls.failNext`: which statuses it can force, and that its operation id is checked. */
import { expect, it } from 'vitest';
import { createMock } from '../../src/index.ts';
import { emptyState } from '../../src/seed/empty-state.ts';

const mock = await createMock({ initialState: emptyState() });
const request = (method: string, path: string) => ({
  method,
  path: `/api/answers/v1${path}`,
  query: new URLSearchParams(),
  headers: new Headers({ authorization: 'Bearer answers_test_full_acme' }),
});

it.each([500, 502, 503, 504, 429, 401])('forces %i on listCollections, once', async (status) => {
  mock.controls.failNext('listCollections', status);
  expect((await mock.handle(request('GET', '/collections'))).response.status).toBe(status);
  expect((await mock.handle(request('GET', '/collections'))).response.status).toBe(200);
});

it('refuses a status no client meets from this operation (418, or 409 on a list)', () => {
  expect(() => mock.controls.failNext('listCollections', 418)).toThrow(
    /listCollections cannot be made to answer 418; it can answer .*500, 502, 503, 504$/,
  );
  expect(() => mock.controls.failNext('listCollections', 409)).toThrow(RangeError);
});

it('refuses an operation id openapi.yaml does not have, and the compiler does too', () => {
  // @ts-expect-error a typo of an operation id does not compile
  expect(() => mock.controls.failNext('listCollection', 500)).toThrow(/Unknown operation/);
});
