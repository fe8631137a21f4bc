/** What a replay reports: each consumer test's outcome, and the run's. */
import type { Pushback } from '../client.ts';
import type { StepRecord } from '../explore/comparison.ts';
import type { Difference } from '../judges/difference.ts';

/** What a sequence's replay saw: each exchange judged, or why not. */
export interface SequenceOutcome {
  judged: number;
  /** Why exchanges were not judged, with how many for each reason. */
  notJudged: Record<string, number>;
}

/** One consumer test's replay. */
export interface ReplayedSequence {
  name: string;
  exchanges: number;
  /** Why the sequence was not replayed at all, when it was not. */
  notReplayed?: string | undefined;
  outcome: SequenceOutcome;
  divergence?:
    | {
        clause: string;
        message: string;
        steps: StepRecord[];
        /** The step (0-based) that diverged. */
        divergedAt: number;
        /** Where the two values compared first part (`--json`), when the step compared two. */
        difference?: Difference | undefined;
      }
    | undefined;
}

export interface ReplayReport {
  runId: string;
  baseUrl: string;
  sequences: ReplayedSequence[];
  /** Every request sent to the target, walks and clean-up included. */
  sentToTarget: number;
  elapsedMs: number;
  leftBehind: string[];
  coverage: { clauses: Record<string, number>; operations: Record<string, number> };
  pushback: Pushback;
  interrupted?: { signal: string } | undefined;
}
