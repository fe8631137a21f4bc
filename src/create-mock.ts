import { assemble } from './assemble.ts';
import type { AnswersMock, MockOptions } from './core/mock.ts';

/**
 * Creates a mock of the Answers API: one function from request to response, and its controls.
 * Without `initialState` it starts from the default seed (`fixtures/default-state.json`).
 */
export async function createMock(options: MockOptions = {}): Promise<AnswersMock> {
  return (await assemble(options)).mock;
}
