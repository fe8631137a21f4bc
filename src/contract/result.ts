/** The outcome of one check and of one clause: a leaf, shared by the runner, the matrix and the reports. */
import type { Difference } from './judges/difference.ts';

export type Outcome = 'pass' | 'fail' | 'skip';

export interface CheckResult {
  id: string;
  title: string;
  level: 'spec' | 'profile';
  clauses: string[];
  outcome: Outcome;
  /** Why it failed or was skipped. */
  reason?: string | undefined;
  /**
   * What a skipped check lacked to be judged, where that is something to give: an option
   * (`--readonly-key`, `--destructive`) or an operation of the description (`createObject`).
   */
  lacked?: string[] | undefined;
  /**
   * In a destructive run, why the check judged existing data read-only instead of data of the
   * run's own: the description offers no operation to create it with.
   */
  readOnly?: string | undefined;
  /** The clause its judge found broken, where a judge decided the failure. */
  broken?: string | undefined;
  /** Where the two values its judge compared first part (`--json`), when it compared two. */
  difference?: Difference | undefined;
  durationMs: number;
}

export interface ClauseResult {
  id: string;
  kind: 'stated' | 'decided';
  text: string;
  outcome: Outcome | 'not testable' | 'not run';
  /** The checks that prove it, or why none does. */
  detail: string;
}
