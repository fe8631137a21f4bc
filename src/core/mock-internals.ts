import type { AnswersMock } from './mock.ts';
import type { MockState } from './store/mock-state.ts';

/**
 * The state behind each mock `createMock` made, kept out of the mock's public shape: users get
 * controls and `mock.db`, which keep the store's invariants; the kit's own adapters (the state
 * file, the streamed export, factories, faults) reach the state through {@link stateOf}.
 * @note Weak, so a mock and its state go together; not exported from the package.
 */
const states = new WeakMap<AnswersMock, MockState>();

/** Records that `mock` answers from `state` (a mock made, or a wrapper of one). */
export function keepState(mock: AnswersMock, state: MockState): void {
  states.set(mock, state);
}

/** The state behind a mock made by `createMock` (or a wrapper that shares it), if any. */
export function maybeStateOf(mock: AnswersMock): MockState | undefined {
  return states.get(mock);
}

/** The state behind a mock made by `createMock`; throws for any other object. */
export function stateOf(mock: AnswersMock): MockState {
  const state = states.get(mock);
  if (!state) throw new TypeError('Not a mock made by createMock (or a wrapper made by the kit)');
  return state;
}
