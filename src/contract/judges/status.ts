/**
 * How a target's status is judged against what a correct target answers (the model's status in
 * explore, the consumer's in replay, the expected one in a fixed check). The spec states 401 for
 * every refusal of a key and states no status for "gone" or "not yours": those are the
 * description's (`statuses`), and "never existed" may answer 404 besides.
 */
import type { ClauseId } from '../../generated/clauses.ts';
import { agreed, diverged, type Verdict } from './verdict.ts';

/**
 * Why a correct target answers "absent": the resource is gone (deleted), not yours (another
 * account's), or never existed (an id that names nothing).
 */
export type Absence = 'gone' | 'notYours' | 'never';

/** The statuses a description counts as gone and as not yours. */
export interface AbsentStatuses {
  readonly gone: readonly number[];
  readonly notYours: readonly number[];
}

export const ok = (status: number) => status >= 200 && status < 300;

/** Whether `status` says "absent" the way `why` allows, by the description's lists. */
export function absentAs(statuses: AbsentStatuses, why: Absence, status: number): boolean {
  if (why === 'gone') return statuses.gone.includes(status);
  // @note Another account's resource was never the caller's to see: "never existed" answers
  // (404) are as right as the description's own.
  return status === 404 || statuses.gone.includes(status) || statuses.notYours.includes(status);
}

export interface StatusEvidence {
  /** The clause the request puts to the test (expectations.ts decides which). */
  clause: ClauseId;
  /** What a correct target answers; 404 stands for "absent", whatever that side calls it. */
  expected: number;
  actual: number;
  why: Absence;
  statuses: AbsentStatuses;
  /** `--level profile`: our document's statuses and problem codes, exactly. */
  exact: boolean;
  /** A read (a get, a list, a search): serving another account's resource breaks isolation. */
  read: boolean;
  /** The problem codes of both answers, compared at `--level profile`. */
  codes?: { expected: unknown; actual: unknown };
  /** What the expected answer is called in messages: the model, the consumer. */
  expectedBy: string;
}

/** The target answered as a correct one does: the same class, and "absent" as its description says. */
export function answeredAlike(evidence: StatusEvidence): Verdict {
  const { clause, expected: m, actual: t, why, statuses, exact } = evidence;
  // @note The spec states 401 for every refusal of a key (§7), a lacking permission included:
  // never 403. At `--level profile` the statuses are our document's, exactly.
  const agrees = exact
    ? m === t
    : ok(m) === ok(t) &&
      (ok(m) ||
        (m === 404 && absentAs(statuses, why, t)) ||
        (m === 401 && t === 401) ||
        (m !== 404 && m !== 401 && Math.floor(m / 100) === Math.floor(t / 100)));
  if (!agrees) {
    // @note Another account's resource served is the isolation judge's, whatever the read:
    // the key identifies the caller's account (§5.1), the list is of it (§4). A write to it
    // keeps the operation's clause (DEL-1 for a delete, OBJ-1 for a create in it).
    if (why === 'notYours' && m === 404 && ok(t) && evidence.read)
      return diverged(
        'ISO-1',
        `${evidence.expectedBy} answered ${m} (another account's), the target ${t}: it served another account's resource`,
      );
    const absent =
      why === 'gone'
        ? statuses.gone
        : why === 'notYours'
          ? [404, ...statuses.notYours, ...statuses.gone]
          : [404, ...statuses.gone, ...statuses.notYours];
    const named = { gone: 'gone', notYours: 'not yours', never: 'never existing' }[why];
    const counted =
      m === 404 ? ` (its description counts ${[...new Set(absent)].join(' or ')} as ${named})` : '';
    return diverged(clause, `${evidence.expectedBy} answered ${m}, the target ${t}${counted}`);
  }
  const codes = evidence.codes;
  if (exact && !ok(m) && codes && codes.expected !== codes.actual)
    return diverged(
      'GAP-ERR-CODES',
      `${evidence.expectedBy}'s problem code is ${String(codes.expected)}, the target's ${String(codes.actual)}`,
    );
  return agreed(clause);
}

/**
 * An answer that could not be judged as one (nested too deep to read, or, at `--level profile`,
 * breaking openapi.yaml: `decision` names the decision) fails the request's own clause.
 */
export function unreadable(clause: ClauseId, message: string, decision?: ClauseId): Verdict {
  return diverged(decision ?? clause, message);
}

/** A request as a fixed check sent it, and what came back. */
export interface Answer {
  status: number;
  method: string;
  path: string;
}

/**
 * The target's status against the one the spec (or, exactly, our document) says a correct target
 * answers: a fixed check's expectation, judged as explore and replay judge theirs (answeredAlike).
 * `expected` 404 stands for "absent" as `why` says; 401 for a refused key; 200 for any success
 * (exactly 200 at `--level profile`).
 */
export function answers(
  clause: ClauseId,
  answer: Answer,
  expected: number,
  options: { why?: Absence; statuses: AbsentStatuses; exact: boolean; when?: string },
): Verdict {
  const why = options.why ?? 'never';
  // @note A success's exact status is the document's to judge (response validation, at
  // `--level profile`): a check expects a success, any of them.
  const exact = options.exact && !ok(expected);
  const verdict = answeredAlike({
    clause,
    expected,
    actual: answer.status,
    why,
    statuses: options.statuses,
    exact,
    read: answer.method === 'GET',
    expectedBy: 'a correct target',
  });
  if (verdict.outcome !== 'diverged') return verdict;
  const wanted =
    expected === 404 && !exact
      ? [
          ...new Set(
            why === 'gone'
              ? options.statuses.gone
              : [404, ...options.statuses.gone, ...options.statuses.notYours],
          ),
        ].join(' or ')
      : ok(expected)
        ? 'a success (2xx)'
        : String(expected);
  return diverged(
    verdict.clause,
    `${answer.method} ${answer.path} answered ${answer.status}${options.when ? ` ${options.when}` : ''}, not ${wanted}`,
  );
}
