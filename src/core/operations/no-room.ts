import type { MockResponse } from '../http.ts';
import type { MockState } from '../store/mock-state.ts';
import { problem } from '../problem.ts';

/**
 * The 507 for a write that would add `objects` objects and `bytes` of stored JSON past the
 * mock's limits, or undefined when there is room.
 * @see docs/spec-gaps.md GAP-LIMIT-STORE
 */
export function noRoom(state: MockState, objects: number, bytes: number): MockResponse | undefined {
  const why = state.roomFor(objects, bytes);
  return why === undefined ? undefined : problem('insufficient_storage', why);
}

/**
 * As {@link noRoom}, for a write that stores object content (`size` its stored JSON), whose
 * new words also count against the limit on distinct search words.
 */
export function noRoomForContent(
  state: MockState,
  objects: number,
  bytes: number,
  content: unknown,
  size: number,
): MockResponse | undefined {
  const why = state.roomFor(objects, bytes) ?? state.roomForWords(content, size);
  return why === undefined ? undefined : problem('insufficient_storage', why);
}
