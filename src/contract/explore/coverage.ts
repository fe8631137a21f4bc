/**
 * How much of what `explore` can judge a run reached: the clauses its steps compare, each with
 * the operations a target description must offer for a sequence to reach it, and the share of
 * those within reach that the run reached at least once (`--min-coverage` gates on it).
 */
import type { OperationName, TargetDescription } from '../target-api/description.ts';
import { EXPLORE_CLAUSES } from '../judges/index.ts';
import { WHOLE_LIST_CLAUSES } from '../judges/walks.ts';

export { EXPLORE_CLAUSES };

/** How often a run met a clause, and how often the judgment could have failed. */
interface ClauseCount {
  /** Judgments of the clause in all. */
  reached: number;
  /** Those whose evidence could have shown the clause broken: the others prove nothing. */
  couldFail: number;
  /** Those that could not have failed, by why. */
  notJudged?: Record<string, number> | undefined;
}

/**
 * The clauses within reach, those of them judged where they could have failed (`reached`), and
 * the share (0 to 100, unrounded).
 */
export interface ClauseCoverage {
  reached: string[];
  reachable: string[];
  percent: number;
  /** Clauses the description's choices put out of reach whatever the run does, with why. */
  notJudged?: Record<string, string> | undefined;
  /** Each clause the run met: how often, and how often it could have failed. */
  clauses?: Record<string, ClauseCount> | undefined;
}

/** What a run counted of the clauses (an explore report's `coverage`). */
interface ClauseCounts {
  /** Judgments that could have failed, by clause. */
  clauses: Record<string, number>;
  /** Judgments in all, by clause. */
  reached?: Record<string, number> | undefined;
  /** Judgments that could not have failed, by clause and why. */
  notJudged?: Record<string, Record<string, number>> | undefined;
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
 * The coverage of a run: `counts` are what it counted (the report's `coverage`; or only the
 * judgments that could have failed, by clause), `offers` says whether the target description
 * offers an operation. A clause is covered where a judgment of it could have failed: one met only
 * where it could not (a walk of collections that share one creation date, a search with nothing
 * to leave out) is not. Clauses a run counted that the table does not name are left out (they
 * cannot be weighed).
 */
export function clauseCoverage(
  counts: ClauseCounts | Record<string, number>,
  offers: (operation: OperationName) => boolean,
  level: 'spec' | 'profile' = 'spec',
  notJudged: Record<string, string> = {},
): ClauseCoverage {
  const run: ClauseCounts =
    typeof counts.clauses === 'object'
      ? (counts as ClauseCounts)
      : { clauses: counts as Record<string, number> };
  const reached = run.clauses;
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
    ...(run.reached || run.notJudged ? { clauses: perClause(run) } : {}),
  };
}

/** Each clause the run met, with how often and how often it could have failed. */
function perClause(run: ClauseCounts): Record<string, ClauseCount> {
  const names = new Set([
    ...Object.keys(run.clauses),
    ...Object.keys(run.reached ?? {}),
    ...Object.keys(run.notJudged ?? {}),
  ]);
  return Object.fromEntries(
    [...names]
      .sort((a, b) => a.localeCompare(b))
      .map((clause) => {
        const couldFail = run.clauses[clause] ?? 0;
        const why = run.notJudged?.[clause];
        const vacuous = Object.values(why ?? {}).reduce((sum, n) => sum + n, 0);
        return [
          clause,
          {
            reached: run.reached?.[clause] ?? couldFail + vacuous,
            couldFail,
            ...(why && vacuous > 0 ? { notJudged: why } : {}),
          },
        ];
      }),
  );
}

/** A clause's line: `COLL-LIST-3 reached 421, could fail 0 (why, 421 times)`. */
function clauseLine(clause: string, count: ClauseCount): string {
  const why = Object.entries(count.notJudged ?? {})
    .sort(([, a], [, b]) => b - a)
    .map(([reason, n]) => `${reason}: ${n}`)
    .join('; ');
  return `  ${clause} reached ${count.reached}, could fail ${count.couldFail}${why ? ` (not judged: ${why})` : ''}`;
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
  const counts = coverage.clauses ?? {};
  // @note Met, but never where it could have failed: not judged, with why, never covered.
  const vacuous = reachable.filter(
    (clause) => !reached.includes(clause) && (counts[clause]?.reached ?? 0) > 0,
  );
  const missing = reachable
    .filter((clause) => !reached.includes(clause) && !vacuous.includes(clause))
    .sort(byName);
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
    ...(vacuous.length > 0
      ? [`never where it could have failed: ${vacuous.sort(byName).join(', ')}`]
      : []),
  ]
    .join('; ')
    .concat(
      Object.keys(counts).length > 0
        ? `\nBy clause (judgments, and those that could have failed):\n${Object.entries(counts)
            .map(([clause, count]) => clauseLine(clause, count))
            .join('\n')}`
        : '',
    );
}

/** Why a run fails `--min-coverage`, or undefined when it meets it (or no gate was given). */
export function coverageShortfall(
  coverage: ClauseCoverage,
  minCoverage: number | undefined,
): string | undefined {
  if (minCoverage === undefined || coverage.percent >= minCoverage) return undefined;
  return `COVERAGE TOO LOW: ${percentText(coverage.percent)} of clauses reached, --min-coverage ${minCoverage}`;
}
