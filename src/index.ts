/** `answers-mock-kit`: create a mock and its msw handlers. Works in Node and in browsers. */
export { createMock } from './create-mock.ts';
export type { AnswersMock, InitialState, MockControls, MockOptions } from './core/create-mock.ts';
export type { MockRequest, MockResponse } from './core/http.ts';
export type { StoreState } from './core/store.ts';
export { StateError } from './core/state-file.ts';
export { createHandlers, type HandlerOptions } from './msw/handlers.ts';
export { defaultState } from './seed/default-state.ts';
export { emptyState } from './seed/empty-state.ts';
export { DEV_KEYS, DEV_ACCOUNTS } from './seed/dev-keys.ts';
export { validateResponse, type ObservedResponse } from './openapi/response-validation.ts';
export type { components, paths, operations } from './generated/openapi.ts';
