/**
 * A replay that judged nothing is not a pass: a consumer test none of whose exchanges was judged
 * agreed with nothing, and a file (or a run) of them is a set-up error, which says what stopped
 * it (a key not given, an operation the description lacks, writes without --destructive) and how
 * to give what it lacks.
 */
import type { ReplayedFile, ReplayedSequence } from './outcome.ts';

/** How a role's key is given to the run. */
const KEY_OPTION: Record<string, string> = {
  full: '--api-key',
  readonly: '--readonly-key',
  otherAccount: '--other-account-key',
  inactive: '--inactive-key',
};

/** What lets a replay judge past a reason it gave, where the run's options can. */
function remedy(reason: string): string {
  const role = /^no (\w+) key was given$/.exec(reason)?.[1];
  if (role !== undefined && KEY_OPTION[role]) return `${reason} (${KEY_OPTION[role]} gives it)`;
  if (reason === 'a key that served the consumer and that the run was not given')
    return `${reason}: give the keys it was recorded with (${Object.values(KEY_OPTION).join(', ')})`;
  return reason;
}

/** Whether a consumer test was replayed and yet none of its exchanges judged (nor diverged). */
export function judgedNothing(sequence: ReplayedSequence): boolean {
  return !sequence.notReplayed && !sequence.divergence && sequence.outcome.judged === 0;
}

/** What first stopped a test's replay from judging: its first reason (the rest follow from it). */
function firstCause(sequence: ReplayedSequence): string {
  if (sequence.notReplayed) return sequence.notReplayed;
  return Object.keys(sequence.outcome.notJudged)[0] ?? 'it holds no exchange';
}

/**
 * Each file's tally, and why it judged nothing where it did: `tests` counts its consumer tests,
 * in the order the run's sequences hold them; `recordedAgainst` names what a file with none was
 * read through.
 */
export function filesJudged(
  files: ReadonlyArray<{ file: string; tests: number }>,
  sequences: readonly ReplayedSequence[],
  recordedAgainst: string,
): ReplayedFile[] {
  let next = 0;
  return files.map(({ file, tests }) => {
    const own = sequences.slice(next, next + tests);
    next += tests;
    const judged = own.reduce((n, s) => n + s.outcome.judged + (s.divergence ? 1 : 0), 0);
    if (judged > 0) return { file, tests, judged };
    const causes = [...new Set(own.map(firstCause))].map(remedy);
    return {
      file,
      tests,
      judged,
      nothingJudged:
        causes.length > 0
          ? causes.join('; ')
          : `it holds no exchange that is an operation of ${recordedAgainst}`,
    };
  });
}
