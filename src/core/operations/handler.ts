import type { MockResponse } from '../http.ts';
import type { MockState } from '../store/mock-state.ts';
import type { components } from '../../generated/openapi.ts';

export type Schemas = components['schemas'];

/** What an operation receives: validated input and the caller's account. */
export interface OperationContext {
  state: MockState;
  accountId: string;
  params: Record<string, string>;
  query: Record<string, unknown>;
  body: unknown;
  /** The path prefix the request came in on, for `Location` headers. */
  prefix: string;
}

/**
 * The mock's implementation of one operation. Called only after routing, authentication and
 * validation; synchronous, so an operation is one step no other request can interleave with.
 */
export type Handler = (context: OperationContext) => MockResponse;
