/**
 * What an HTML report shows, the same for every command (`--html`): the verdict, the facts of
 * the run, the clause table and the stories of the failures. Each command's report (the value its
 * `--json` writes) is mapped to one of these by its own view (suite-view.ts, explore-view.ts,
 * replay-view.ts, diff-view.ts); page.ts draws it. Nothing is judged here: every verdict shown is
 * one the report already holds.
 */
import type { Difference } from '../judges/difference.ts';
import type { Pushback } from '../client.ts';

/** A clause's verdict in a run, as the table shows it. */
export type ClauseVerdict = 'passed' | 'failed' | 'noted' | 'not judged';

export interface ClauseRow {
  id: string;
  verdict: ClauseVerdict;
  /** How it was judged (the checks, how often), or why it was not. */
  detail: string;
}

/** One step of a story: what the client sent, what each side answered. */
interface StoryStep {
  request: string;
  model?: string | undefined;
  target?: string | undefined;
}

/** A failure told as a sequence: client, model, target, the step that diverged marked. */
export interface StoryView {
  /** The check, the consumer test or the difference it is the story of. */
  title: string;
  clause: string;
  message: string;
  /** What the three columns are called: e.g. the client, the model, the target. */
  sides: { model: string; target: string };
  steps: StoryStep[];
  /** The step (0-based) that diverged, when there are steps. */
  divergedAt?: number | undefined;
  difference?: Difference | undefined;
  /** Lines printed with the story: how to replay it, how often it showed. */
  notes?: string[] | undefined;
}

export interface ReportView {
  /** The command, as a user types it: `answers-contract explore`. */
  command: string;
  /** What was run against what, in one line. */
  title: string;
  verdict: { label: string; passed: boolean; why?: string | undefined };
  /** The run's figures: name and value, in order (run id, requests, duration, coverage…). */
  facts: Array<[string, string]>;
  clauses: ClauseRow[];
  /** The heading of the clause table: what its rows are (clauses, or differences). */
  clausesAre?: string | undefined;
  stories: StoryView[];
  /** What the target pushed back with, when a run counted it. */
  pushback?: Pushback | undefined;
  /** What the run left behind on the target (ids); undefined for a command that only reads. */
  leftBehind: string[] | undefined;
  notes: string[];
}

/** Figures as text, for the facts. */
export const seconds = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;

/** A count of names, for the facts: `createObject 84, getObject 67`. */
export function countsText(record: Record<string, number>): string {
  return (
    Object.entries(record)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([name, n]) => `${name} ${n}`)
      .join(', ') || 'none'
  );
}

/** The why of a clause met only where it could not have failed: each reason with its count. */
export function reasonsText(reasons: Record<string, number> | undefined): string | undefined {
  if (!reasons || Object.keys(reasons).length === 0) return undefined;
  return Object.entries(reasons)
    .map(([why, n]) => `${why} (${n})`)
    .join('; ');
}
