import { assembleMock, type Intercept, type MockAssembly } from './core/create-mock.ts';
import type { MockOptions } from './core/mock.ts';

/**
 * A mock and the state behind it, for the kit's own assembly points (the Node test server's
 * recording, a mock with a fault): `createMock`'s defaults, with `intercept` in front of the API.
 * Kept apart from `create-mock.ts`, whose declarations users get, so that theirs never reach the
 * state's types.
 * @note The default seed is imported only when it is used, so that a browser bundle whose code
 * passes its own data does not load ours (bundlers that split code put it in a chunk of its own).
 */
export async function assemble(
  options: MockOptions = {},
  intercept?: Intercept,
): Promise<MockAssembly> {
  const { initialState, ...rest } = options;
  return assembleMock(
    initialState ?? (await import('./seed/default-state.ts')).defaultState,
    rest,
    intercept,
  );
}
