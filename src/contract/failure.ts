/**
 * How a check ends other than by passing. A leaf: the client, the shared data and the checks all
 * throw these, and the runner tells them apart, without importing one another.
 */

import type { ClauseId } from '../generated/clauses.ts';

/** Thrown by a check to fail with a readable reason. */
export class CheckFailure extends Error {
  override name = 'CheckFailure';
  constructor(
    message: string,
    /** The clause or decision it goes against, where the thrower knows it (openapi.yaml's). */
    readonly clause?: ClauseId,
  ) {
    super(message);
  }
}

/** Thrown by `context.skip`. */
export class CheckSkipped extends Error {
  override name = 'CheckSkipped';
}

/** Ends the running check as skipped, with the reason. */
export type Skip = (reason: string) => never;

/** Fails the running check unless `condition` holds. */
export function ensure(condition: unknown, message: string): asserts condition {
  if (!condition) throw new CheckFailure(message);
}

/**
 * Thrown by the client once the run was interrupted (the first SIGINT or SIGTERM): a request not
 * yet answered is given up, no new one is sent, and the check that sent it is not judged.
 */
export class Interrupted extends Error {
  override name = 'Interrupted';
  constructor(readonly signal: string) {
    super(`interrupted by ${signal}`);
  }
}
