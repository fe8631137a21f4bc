/**
 * What a judge answers, and the one way a verdict ends a step. Every front-end (the fixed checks,
 * explore's steps, replay's exchanges) gathers evidence and hands it to the judge of a clause;
 * none decides a verdict of its own, so a rule holds the same wherever it is met.
 */
import type { ClauseId } from '../../generated/clauses.ts';
import type { Difference } from './difference.ts';

/** What one step did on both sides, as a story prints it. */
export interface StepRecord {
  request: string;
  model: string;
  target: string;
}

export type Verdict =
  | { readonly outcome: 'agreed'; readonly clause: ClauseId }
  | {
      readonly outcome: 'diverged';
      readonly clause: ClauseId;
      readonly message: string;
      /** Where two values compared first part, when the verdict compared two values. */
      readonly difference?: Difference | undefined;
    }
  /** The evidence could not have shown the rule broken: never counted as judged. */
  | { readonly outcome: 'notJudged'; readonly clause: ClauseId; readonly reason: string };

export const agreed = (clause: ClauseId): Verdict => ({ outcome: 'agreed', clause });
export const diverged = (clause: ClauseId, message: string, difference?: Difference): Verdict => ({
  outcome: 'diverged',
  clause,
  message,
  ...(difference ? { difference } : {}),
});
export const notJudged = (clause: ClauseId, reason: string): Verdict => ({
  outcome: 'notJudged',
  clause,
  reason,
});

/** A step whose answers break a clause: the one failure every front-end reports. */
export class Divergence extends Error {
  override name = 'Divergence';
  /**
   * The steps of the sequence it ended, set as it leaves the sequence: the story fast-check's
   * counterexample tells, carried by the error fast-check reports (`errorInstance`).
   */
  records: StepRecord[] = [];
  constructor(
    readonly clause: ClauseId,
    readonly detail: string,
    readonly step: StepRecord,
    /** Where the two values compared first part, when the step compared two values. */
    readonly difference?: Difference,
  ) {
    super(`${clause}: ${detail}`);
  }
}

/** Ends the step with the verdict's divergence, if it is one; else hands the verdict back. */
export function uphold(verdict: Verdict, record?: StepRecord): Verdict {
  if (verdict.outcome === 'diverged')
    throw new Divergence(
      verdict.clause,
      verdict.message,
      record ?? { request: '', model: '', target: verdict.message },
      verdict.difference,
    );
  return verdict;
}

/**
 * Many verdicts of one judgement (every request of a set), as one: diverged with the first
 * broken clause and every divergence's message, else the first verdict.
 */
export function together(verdicts: readonly Verdict[]): Verdict | undefined {
  const broken = verdicts.filter((verdict) => verdict.outcome === 'diverged');
  if (broken.length === 0) return verdicts[0];
  const first = broken[0] as Extract<Verdict, { outcome: 'diverged' }>;
  return diverged(
    first.clause,
    broken.map((verdict) => (verdict as { message: string }).message).join('; '),
    first.difference,
  );
}
