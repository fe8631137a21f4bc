import { assembleMock, type Intercept, type MockAssembly } from './core/create-mock.ts';
import type { AnswersMock, MockOptions } from './core/mock.ts';

/**
 * Creates a mock of the Answers API: one function from request to response, and its controls.
 * Without `initialState` it starts from the default seed (`fixtures/default-state.json`).
 */
export async function createMock(options: MockOptions = {}): Promise<AnswersMock> {
  return (await assemble(options)).mock;
}

/**
 * A mock and the state behind it, for the kit's own assembly points (the CLI's state file, a
 * mock with a fault): `createMock`'s defaults, with `intercept` in front of the API.
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
