/**
 * How much of what `explore` can judge a run reached: the clauses its steps compare, each with
 * the operations a target description must offer for a sequence to reach it, and the share of
 * those within reach that the run reached at least once (`--min-coverage` gates on it).
 */
import type { OperationName, TargetDescription } from '../target-api/description.ts';
import type { ClauseId } from '../../generated/clauses.ts';

/**
 * Every clause `explore` judges, with the operations needed to reach it. A step that names a new
 * clause adds it here (test/contract/explore-report.node.test.ts fails until it does).
 */
export const EXPLORE_CLAUSES: Partial<Record<ClauseId, readonly OperationName[]>> = {
  'COLL-1': ['createCollection'],
  'COLL-GET-1': ['getCollection'],
  'COLL-2': ['createCollection', 'getCollection'],
  'COLL-3': ['createCollection', 'getCollection'],
  'DEL-1': ['deleteCollection'],
  'DEL-2': ['deleteCollection', 'createObject'],
  'OBJ-1': ['createObject'],
  'OBJ-2': ['createObject'],
  'OBJ-3': ['createObject', 'getObject'],
  'OBJ-GET-1': ['createObject', 'getObject'],
  'SEARCH-1': ['search'],
  'ISO-1': ['listCollections'],
  'COLL-LIST-2': ['listCollections', 'createCollection'],
  'COLL-LIST-3': ['listCollections', 'createCollection'],
  'DEL-3': ['createObject', 'deleteObject'],
  'REQ-1': ['createCollection'],
  'AUTH-1': ['createCollection'],
  'AUTH-3': ['listCollections'],
  'AUTH-4': ['listCollections'],
  'ERR-401-1': ['listCollections'],
  'ERR-401-3': ['listCollections'],
  'ERR-401-4': ['listCollections'],
  // Our document's decisions: judged at `--level profile` only.
  'GAP-MEDIA': ['listCollections'],
  'GAP-ERR-BODY': ['listCollections'],
  'GAP-ERR-STATUS': ['listCollections'],
  'GAP-ERR-CODES': ['listCollections'],
  'GAP-AUTH-CHALLENGE': ['listCollections'],
  'GAP-AUTH-PRECEDENCE': ['listCollections'],
  'GAP-METHODS': ['listCollections'],
  'GAP-PAGE-PARAMS': ['listCollections'],
  'GAP-PAGE-FIELDS': ['listCollections'],
  'GAP-BODY-FIELDS': ['createCollection'],
  'GAP-COLL-FIELDS': ['createCollection'],
  'GAP-OBJ-FIELDS': ['createObject'],
  'GAP-SEARCH-RESP': ['search'],
  'ERR-401-2': ['listCollections'],
  // A read-only key's write: judged when a read-only key is given.
  'ERR-401-5': ['createCollection'],
};

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
  return { 'COLL-LIST-2': why, 'COLL-LIST-3': why };
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
