import type { Settle } from './settle.ts';
import type { OperationName } from './target-api/description.ts';
import type { RunData } from './runner/run-data.ts';
import type { RunKeys } from './runner/run.ts';
import type { Target } from './target-api/target.ts';
import type { Skip } from './failure.ts';
import type { Verdict } from './judges/verdict.ts';
import { answers, type Absence, type Answer } from './judges/status.ts';
import type { ClauseId } from '../generated/clauses.ts';

export { CheckFailure, CheckSkipped } from './failure.ts';

/**
 * `spec`: follows from the spec's text and relies on nothing but stated clauses and the target's
 * description; at `--level profile` it is held to our document too (schemas, statuses).
 * `profile`: follows from a decision recorded in docs/spec-gaps.md; runs only at `--level profile`.
 */
type CheckLevel = 'spec' | 'profile';

/** What a check needs beyond a key with every permission. */
export type Requirement = 'destructive' | 'readonlyKey' | 'otherAccountKey' | 'inactiveKey';

/** What a check runs with. */
export interface CheckContext {
  /** The target as its description says it works: every request goes through it. */
  target: Target;
  /** What the run created through the target: the one tracker of created data. */
  run: RunData;
  keys: RunKeys;
  destructive: boolean;
  /**
   * In a destructive run whose description cannot create what this check would write: why. The
   * check then runs read-only (`destructive` false), on existing data.
   */
  readOnlyBecause?: string | undefined;
  /** `profile`: the target claims our document, and is held to it. */
  profile: boolean;
  /** Reads after a write: asked again until they show it, within `--settle`. */
  settle: Settle;
  /** Ends the check as skipped, with the reason. */
  skip: Skip;
  /**
   * Keeps a judge's verdict: a divergence fails the check with the judge's clause; a check whose
   * every verdict was "not judged" did not pass, it is skipped with their reasons.
   */
  judged(verdict: Verdict): void;
}

/** One check of the contract suite: a rule of the API, proven over HTTP against any target. */
export interface ContractCheck {
  /** Stable id, e.g. `auth.missing-key`. */
  id: string;
  /** What the check proves, as a sentence in the present tense. */
  title: string;
  /**
   * The clause ids of docs/spec-gaps.md a check of your own proves. The suite's own checks are
   * named by the clauses they meet in one table (src/contract/judges/index.ts, `JUDGING`).
   */
  clauses?: string[];
  level: CheckLevel;
  needs?: Requirement[];
  /** Operations the check cannot run without: it skips, sending nothing, when one is missing. */
  uses?: OperationName[];
  /**
   * Operations it uses where the description offers them, and judges less without (a read-only
   * run finds existing objects through listObjects): `init` names the checks each would serve.
   */
  usesWhereOffered?: OperationName[];
  /**
   * Judges whole lists (their order, their pages, their counts), which another check's write
   * would change between two pages: runs while no other check is in flight. Checks that only
   * look for or past items in a list need not: an item added or removed meanwhile changes
   * nothing they judge.
   */
  exclusive?: boolean;
  run(context: CheckContext): Promise<void>;
}

/** Declares a check (identity function, for type inference and one place to find them). */
export function defineCheck(check: ContractCheck): ContractCheck {
  return check;
}

/**
 * The advice to run with --destructive, where it would help: never inside a destructive run,
 * which instead says why it could not create the data (a check judged read-only).
 */
export function destructiveHint(context: {
  destructive: boolean;
  readOnlyBecause?: string | undefined;
}): string {
  if (context.readOnlyBecause) return ` (--destructive ${context.readOnlyBecause})`;
  return context.destructive ? '' : ' (run with --destructive)';
}

/**
 * A check's judgement of a status: the answer against the one a correct target gives (404
 * standing for "absent" as `why` says, 200 for any success, exactly at `--level profile`).
 */
export function judgeStatus(
  context: Pick<CheckContext, 'judged' | 'target' | 'profile'>,
  clause: ClauseId,
  got: Answer,
  expected: number,
  when?: string,
  why: Absence = 'never',
): void {
  context.judged(
    answers(clause, got, expected, {
      why,
      statuses: context.target.statuses,
      exact: context.profile,
      ...(when ? { when } : {}),
    }),
  );
}
