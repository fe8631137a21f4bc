/**
 * The verdict of a whole run, decided in one place from its checks' results: a run passes only
 * when something was judged. A leaf, shared by the runner, its reports and the CLI.
 */
import type { CheckResult } from './result.ts';

/**
 * `passed`: at least one check passed, none failed, nothing was left behind (and, with
 * `--fail-on-skip`, none skipped). `failed`: a check failed, data was left behind, or a skip with
 * `--fail-on-skip` (exit 1). `nothing judged`: no check passed and none failed, so the run proves
 * nothing; a set-up error (exit 2). `interrupted`: a signal ended it.
 */
export type RunVerdict = 'passed' | 'failed' | 'nothing judged' | 'interrupted';

/** What stopped a run that judged nothing, named so that it can be given. */
export interface NothingJudged {
  /** Options the run was not given that checks needed: the roles' keys, `--destructive`. */
  options: string[];
  /** Operations the description does not offer that checks needed. */
  operations: string[];
  /** The other reasons checks gave, each once. */
  other: string[];
}

/**
 * Whether a run judged nothing (no check passed and none failed, or no check ran), and if so,
 * what stopped it: the one rule every front-end's verdict follows.
 */
export function nothingJudged(results: readonly CheckResult[]): NothingJudged | undefined {
  if (results.some((result) => result.outcome !== 'skip')) return undefined;
  const options = new Set<string>();
  const operations = new Set<string>();
  const other = new Set<string>();
  for (const result of results) {
    if (!result.lacked || result.lacked.length === 0) {
      if (result.reason) other.add(result.reason);
      continue;
    }
    for (const what of result.lacked) (what.startsWith('--') ? options : operations).add(what);
  }
  return { options: [...options], operations: [...operations], other: [...other] };
}

/** What stopped a run that judged nothing, in one line. */
export function stoppedBy(nothing: NothingJudged): string {
  const parts = [
    nothing.options.length > 0 ? `not given ${nothing.options.join(', ')}` : '',
    nothing.operations.length > 0
      ? `the description offers no ${nothing.operations.join(', ')}`
      : '',
    ...nothing.other,
  ].filter(Boolean);
  return `no check passed and none failed: ${parts.join('; ') || 'no check ran'}`;
}

/** The verdict of a run from what it found. */
export function runVerdict(run: {
  results: readonly CheckResult[];
  leftBehind: readonly string[];
  interrupted: boolean;
  failOnSkip: boolean;
}): RunVerdict {
  if (run.interrupted) return 'interrupted';
  if (run.results.some((r) => r.outcome === 'fail') || run.leftBehind.length > 0) return 'failed';
  if (nothingJudged(run.results)) return 'nothing judged';
  if (run.failOnSkip && run.results.some((r) => r.outcome === 'skip')) return 'failed';
  return 'passed';
}
