import { createMockFrom } from './core/create-mock.ts';
import type { AnswersMock, MockOptions } from './core/mock.ts';

/**
 * Creates a mock of the Answers API: one function from request to response, and its controls.
 * Without `initialState` it starts from the default seed (`fixtures/default-state.json`).
 * @note The default seed is imported only when it is used, so that a browser bundle whose code
 * passes its own data does not load ours (bundlers that split code put it in a chunk of its own).
 */
export async function createMock(options: MockOptions = {}): Promise<AnswersMock> {
  const { initialState, ...rest } = options;
  return createMockFrom(
    initialState ?? (await import('./seed/default-state.ts')).defaultState,
    rest,
  );
}
