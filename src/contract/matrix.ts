import { CLAUSES } from '../generated/clauses.ts';
import { NOT_TESTABLE } from './judges/index.ts';
import type { CheckResult, ClauseResult, Outcome } from './result.ts';

/**
 * Every clause of docs/spec-gaps.md with the outcome of the checks that prove it. A stated clause
 * is judged by spec checks alone (a profile check proves our decisions, not the spec), and counts
 * as passed only when a check ran and passed: skips are no evidence.
 */
export function conformanceMatrix(
  results: CheckResult[],
  level: 'spec' | 'profile' = 'profile',
): ClauseResult[] {
  return CLAUSES.map(({ id, kind, text }) => {
    if (kind === 'decided' && level === 'spec' && !(id in NOT_TESTABLE))
      return {
        id,
        kind,
        text,
        outcome: 'not run',
        detail: 'a decision of ours: --level profile judges it',
      };
    const citing = results.filter(
      (result) => result.clauses.includes(id) && (kind !== 'stated' || result.level === 'spec'),
    );
    if (citing.length === 0) {
      return {
        id,
        kind,
        text,
        outcome: 'not testable',
        detail: NOT_TESTABLE[id] ?? 'no check proves it yet',
      };
    }
    const failed = citing.filter((r) => r.outcome === 'fail');
    const passed = citing.filter((r) => r.outcome === 'pass');
    const outcome: Outcome = failed.length > 0 ? 'fail' : passed.length > 0 ? 'pass' : 'skip';
    const named = failed.length > 0 ? failed : passed.length > 0 ? passed : citing;
    return { id, kind, text, outcome, detail: named.map((r) => r.id).join(', ') };
  });
}
