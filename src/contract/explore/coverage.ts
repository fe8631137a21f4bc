/**
 * How much of what `explore` can judge a run reached: the clauses its steps compare, each with
 * the operations a target description must offer for a sequence to reach it, and the share of
 * those within reach that the run reached at least once (`--min-coverage` gates on it).
 */
import type { OperationName, TargetDescription } from '../target-api/description.ts';
import { EXPLORE_CLAUSES } from '../judges/index.ts';
import { WHOLE_LIST_CLAUSES } from '../judges/walks.ts';

export { EXPLORE_CLAUSES };

/** The clauses within reach, those of them reached, and the share reached (0 to 100, unrounded). */
export interface ClauseCoverage {
  reached: string[];
  reachable: string[];
  percent: number;
  /** Clauses the description's choices put out of reach whatever the run does, with why. */
  notJudged?: Record<string, string> | undefined;
}

/**
 * Clauses a description's choices put out of reach, with the reason: a list the description
 * gives no way to page (no `pageToken`, `follow`, `page` or `offset`) is never walked whole, so
 * its walk and its order are not judged.
 */
export function unjudgeable(paging: TargetDescription['paging']): Record<string, string> {
  if (paging.pageToken || paging.follow || paging.page || paging.offset) return {};
  const why = 'the target description gives no way to ask for page 2, so no walk is whole';
  return Object.fromEntries(WHOLE_LIST_CLAUSES.map((clause) => [clause, why]));
}

/**
 * The coverage of a run: `reached` counts the times each clause was judged (the report's
 * `coverage.clauses`), `offers` says whether the target description offers an operation.
 * Clauses a run counted that the table does not name are left out (they cannot be weighed).
 */
export function clauseCoverage(
  reached: Record<string, number>,
  offers: (operation: OperationName) => boolean,
  level: 'spec' | 'profile' = 'spec',
  notJudged: Record<string, string> = {},
): ClauseCoverage {
  // @note Our document's decisions (GAP-*) are judged at `--level profile` only.
  const judged = Object.entries(EXPLORE_CLAUSES).filter(
    ([clause]) => level === 'profile' || !clause.startsWith('GAP-'),
  );
  const reachable = judged
    .filter(([clause, operations]) => operations.every(offers) && !(clause in notJudged))
    .map(([clause]) => clause);
  const hit = reachable.filter((clause) => (reached[clause] ?? 0) > 0);
  // @note Nothing within reach is 0 %, not 100 %: a run that could judge nothing proved
  // nothing, and a --min-coverage gate must not pass on it.
  const percent = reachable.length === 0 ? 0 : (hit.length * 100) / reachable.length;
  return {
    reached: hit,
    reachable,
    percent,
    ...(Object.keys(notJudged).length > 0 ? { notJudged } : {}),
  };
}

/**
 * A percentage as printed: rounded down, so a run below a gate never prints the gate's own
 * number (85.7 % of 14 clauses prints 85 %, and fails `--min-coverage 86`).
 */
export function percentText(percent: number): string {
  return `${Math.floor(percent)}%`;
}

/** The line that says how much was covered, and what within reach was not. */
export function formatClauseCoverage(coverage: ClauseCoverage): string {
  const { reached, reachable } = coverage;
  if (reachable.length === 0)
    return 'Coverage: 0 of 0 clauses: the target description offers none of the operations explore needs';
  const byName = (a: string, b: string) => a.localeCompare(b);
  const missing = reachable.filter((clause) => !reached.includes(clause)).sort(byName);
  const notJudged = coverage.notJudged ?? {};
  const unjudged = Object.keys(EXPLORE_CLAUSES)
    .filter(
      (clause) =>
        !reachable.includes(clause) && !clause.startsWith('GAP-') && !(clause in notJudged),
    )
    .sort(byName);
  const byReason = new Map<string, string[]>();
  for (const [clause, why] of Object.entries(notJudged).sort(([a], [b]) => byName(a, b)))
    byReason.set(why, [...(byReason.get(why) ?? []), clause]);
  return [
    `Coverage: ${reached.length} of ${reachable.length} clauses (${percentText(coverage.percent)})`,
    ...(missing.length > 0 ? [`not reached: ${missing.join(', ')}`] : []),
    ...(unjudged.length > 0
      ? [`not judged (operations the target does not offer): ${unjudged.join(', ')}`]
      : []),
    ...[...byReason].map(([why, clauses]) => `not judged (${why}): ${clauses.join(', ')}`),
  ].join('; ');
}

/** Why a run fails `--min-coverage`, or undefined when it meets it (or no gate was given). */
export function coverageShortfall(
  coverage: ClauseCoverage,
  minCoverage: number | undefined,
): string | undefined {
  if (minCoverage === undefined || coverage.percent >= minCoverage) return undefined;
  return `COVERAGE TOO LOW: ${percentText(coverage.percent)} of clauses reached, --min-coverage ${minCoverage}`;
}
