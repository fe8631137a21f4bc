/** What a replay reports: each consumer test's outcome, and the run's. */
import type { Pushback } from '../client.ts';
import type { StepRecord } from '../explore/comparison.ts';
import type { Difference } from '../judges/difference.ts';

/** What a sequence's replay saw: each exchange judged, or why not. */
export interface SequenceOutcome {
  judged: number;
  /** Why exchanges were not judged, with how many for each reason. */
  notJudged: Record<string, number>;
  /**
   * What the test relies on that the target decides otherwise where the spec leaves it open (a
   * page size past its limit, another status that means the same), with how many exchanges
   * showed each: facts of compatibility, not verdicts of the spec.
   */
  compatibility?: Record<string, number> | undefined;
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

/** What one file given to replay came to. */
export interface ReplayedFile {
  file: string;
  /** Its consumer tests (a HAR's pages). */
  tests: number;
  /** Its exchanges judged (a divergence counts as one). */
  judged: number;
  /** Why none was, and how to give what it lacked, when none was: the file is not passed. */
  nothingJudged?: string | undefined;
}

export interface ReplayReport {
  /**
   * Every test that was replayed agreed, nothing was left behind, the run was not interrupted,
   * and every file had an exchange judged.
   */
  passed: boolean;
  runId: string;
  baseUrl: string;
  sequences: ReplayedSequence[];
  /** Every request sent to the target, walks and clean-up included. */
  sentToTarget: number;
  elapsedMs: number;
  leftBehind: string[];
  /** Each file given, in order. */
  files: ReplayedFile[];
  /**
   * Every compatibility note of every test, with how many exchanges showed it: they fail the run
   * only with `--strict-compatibility` (`strictCompatibility`).
   */
  compatibility: Record<string, number>;
  /** `--strict-compatibility`: a compatibility note fails the run. */
  strictCompatibility?: true | undefined;
  /** Why the run, or one of its files, judged nothing (a set-up error: exit 2), when so. */
  nothingJudged?: string | undefined;
  coverage: {
    clauses: Record<string, number>;
    operations: Record<string, number>;
    /** Clauses met where the evidence could not have shown them broken: by clause, by reason. */
    notJudged: Record<string, Record<string, number>>;
  };
  pushback: Pushback;
  interrupted?: { signal: string } | undefined;
}
