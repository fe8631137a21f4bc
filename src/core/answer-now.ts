import type { HandledRequest } from './handle-request.ts';
import type { MockRequest } from './http.ts';
import type { AnswersMock } from './mock.ts';

type AnswerNow = (request: MockRequest) => HandledRequest | Promise<HandledRequest>;

/**
 * The same-turn answer of each mock `createMock` made (see {@link answerNow}).
 * @note Kept beside the mock, not on it: a wrapper that spreads a mock and replaces
 * `handleDetailed` (as tests and the fault wrappers do) is a new object, so its requests go
 * through its own `handleDetailed` and are never answered behind its back.
 */
const immediate = new WeakMap<AnswersMock, AnswerNow>();

/** Records how `mock` answers a request in the same turn when it can. */
export function canAnswerNow(mock: AnswersMock, answer: AnswerNow): void {
  immediate.set(mock, answer);
}

/**
 * `mock.handleDetailed(request)`, answered in the same turn when the mock can: no other request
 * waiting or running, no latency set, and a synchronous operation (every read). Otherwise the
 * same promise as `handleDetailed`. A bug throws or rejects.
 */
export function answerNow(
  mock: AnswersMock,
  request: MockRequest,
): HandledRequest | Promise<HandledRequest> {
  const answer = immediate.get(mock);
  return answer ? answer(request) : mock.handleDetailed(request);
}
