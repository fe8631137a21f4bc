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

/**
 * Thrown where a destructive run would create data and the description offers no operation to
 * create it with: nothing was sent. The runner judges the check again read-only, on existing
 * data, as a run without --destructive would: --destructive adds checks, and never turns one that
 * passes read-only into a skip.
 */
export class CannotCreate extends CheckSkipped {
  override name = 'CannotCreate';
  constructor(
    message: string,
    /** The operation the description lacks. */
    readonly operation: string,
  ) {
    super(message);
  }
}

/** Ends the running check as skipped, with the reason. */
export type Skip = (reason: string) => never;

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

/**
 * Thrown by the client when the target gave no whole answer within the per-request deadline
 * (`--request-timeout`): it accepted the request and then went silent, or trickled its answer.
 * The run ends there, as after a signal: no request is sent after it, those in flight are given
 * up, the clean-up runs within its deadline, and the command exits 2 saying what is left.
 */
export class TargetStalled extends Error {
  override name = 'TargetStalled';
  constructor(
    readonly request: string,
    readonly timeoutMs: number,
  ) {
    super(
      `the target stopped answering: ${request} got no whole answer within ${seconds(timeoutMs)} (--request-timeout); the run stopped there`,
    );
  }
}

/** A duration in milliseconds as the options take it: `10 s`, `1.5 s`, `500 ms`. */
export function seconds(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${Number((ms / 1000).toFixed(1))} s`;
}
