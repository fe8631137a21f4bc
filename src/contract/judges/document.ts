/**
 * What openapi.yaml's validation judged of a response that passed it (`--level profile`): the
 * decisions every answer is held to (its media type and status), an error's body, a 401's
 * challenge, and a success's body by operation (`bodyDecision`).
 */
import type { ClauseId } from '../../generated/clauses.ts';
import { bodyDecision } from '../../openapi/response-validation.ts';
import { PROFILE_OPERATION } from '../target-api/target.ts';
import type { OperationName } from '../target-api/description.ts';
import { ok } from './status.ts';
import { agreed, diverged, type Verdict } from './verdict.ts';

/** The decisions of our document a fixed check judges at `--level profile`, by name. */
export const DECISION = {
  bodyFields: 'GAP-BODY-FIELDS',
  errCodes: 'GAP-ERR-CODES',
  ids: 'GAP-IDS',
  limitPage: 'GAP-LIMIT-PAGE',
  media: 'GAP-MEDIA',
  methods: 'GAP-METHODS',
  orderCheck: 'GAP-ORDER-CHECK',
  pageParams: 'GAP-PAGE-PARAMS',
  searchMatch: 'GAP-SEARCH-MATCH',
  searchRequest: 'GAP-SEARCH-REQ',
  sortDirection: 'GAP-SORT-DIRECTION',
} as const satisfies Record<string, ClauseId>;

/** GAP-ERR-CODES: a refusal's problem code is the one our document gives it. */
export function problemCode(request: string, expected: string, code: unknown): Verdict {
  return code === expected
    ? agreed(DECISION.errCodes)
    : diverged(DECISION.errCodes, `${request} answered code ${String(code)}, not ${expected}`);
}

/** A decision of our document about what a refused write leaves: nothing at all. */
export function refusedLeftNothing(decision: ClauseId, what: string, left: number): Verdict {
  return left === 0 ? agreed(decision) : diverged(decision, `${what} left ${left} behind`);
}

export function judgedByDocument(operation: OperationName, status: number): ClauseId[] {
  return [
    'GAP-MEDIA',
    'GAP-ERR-STATUS',
    ...(status >= 400 ? (['GAP-ERR-BODY'] as const) : []),
    ...(status === 401 ? (['GAP-AUTH-CHALLENGE'] as const) : []),
    ...(ok(status) ? [bodyDecision(PROFILE_OPERATION[operation], status)] : []),
  ];
}

/**
 * GAP-AUTH-CHALLENGE and GAP-ERR-BODY: a 401 carries a Bearer challenge (with the RFC 6750
 * `error` our document gives for `what`, where it gives one) and a problem body with a code.
 */
export function challenged(
  what: string,
  challenge: string,
  error: string | undefined,
  code: unknown,
): Verdict {
  if (!/^Bearer\b/i.test(challenge))
    return diverged(
      'GAP-AUTH-CHALLENGE',
      `a 401 for ${what} has no Bearer challenge (WWW-Authenticate: "${challenge}")`,
    );
  if (error && !challenge.includes(`error="${error}"`))
    return diverged(
      'GAP-AUTH-CHALLENGE',
      `the challenge for ${what} lacks error="${error}": "${challenge}"`,
    );
  if (typeof code !== 'string')
    return diverged('GAP-ERR-BODY', `the 401 for ${what} has no problem code`);
  return agreed('GAP-AUTH-CHALLENGE');
}

/** GAP-SEARCH-MATCH: a search answers only objects holding a query word, by score. */
export function onlyMatches(request: string, strays: readonly string[], scores: number[]): Verdict {
  if (strays.length > 0)
    return diverged(
      DECISION.searchMatch,
      `${request} returned ${strays.length} object(s) without it, e.g. ${strays[0]}`,
    );
  if (!scores.every((score, i) => i === 0 || score <= scores[i - 1]!))
    return diverged(DECISION.searchMatch, 'hits are not ordered by score');
  return agreed(DECISION.searchMatch);
}

/** GAP-SEARCH-REQ: a search given `collection_ids` answers hits from those collections only. */
export function withinScope(request: string, outside: readonly string[]): Verdict {
  return outside.length === 0
    ? agreed(DECISION.searchRequest)
    : diverged(DECISION.searchRequest, `${request} returned hits from ${outside.join(', ')}`);
}

/**
 * A bad request refused as our document decides (`decision`): its status, and its problem code
 * where the document gives one; never a server error.
 */
export function refusedAsDecided(
  decision: ClauseId,
  answer: { method: string; path: string; status: number },
  status: number,
  code: string | undefined,
  shownCode: unknown,
): Verdict {
  const sent = `${answer.method} ${answer.path}`;
  if (answer.status >= 500)
    return diverged(
      decision,
      `${sent} answered ${answer.status}: a bad request must never be a server error`,
    );
  if (answer.status !== status)
    return diverged(decision, `${sent} answered ${answer.status}, not ${status}`);
  if (code && shownCode !== code)
    return diverged(DECISION.errCodes, `${sent} answered code ${String(shownCode)}, not ${code}`);
  return agreed(decision);
}

/** GAP-METHODS: a method a path does not offer is refused with 405 and an `Allow` naming the rest. */
export function methodRefused(
  request: string,
  status: number,
  allowHeader: string | null,
  allowed: readonly string[],
): Verdict {
  if (status !== 405) return diverged(DECISION.methods, `${request} answered ${status}, not 405`);
  const allow = (allowHeader ?? '').split(',').map((m) => m.trim().toUpperCase());
  if (!allowed.every((m) => allow.includes(m)))
    return diverged(
      DECISION.methods,
      `${request}: Allow is "${allowHeader}", expected ${allowed.join(', ')}`,
    );
  return agreed(DECISION.methods);
}

/** GAP-ERR-BODY: an error is a problem document (RFC 9457). */
export function problemMedia(contentType: string | null): Verdict {
  return contentType?.startsWith('application/problem+json')
    ? agreed('GAP-ERR-BODY')
    : diverged('GAP-ERR-BODY', `an error is ${contentType}, not application/problem+json`);
}

/** GAP-SORT-DIRECTION: the default walk is oldest first. */
export function oldestFirst(dates: readonly number[]): Verdict {
  return dates.every((date, i) => i === 0 || date >= dates[i - 1]!)
    ? agreed(DECISION.sortDirection)
    : diverged(DECISION.sortDirection, 'the default walk is not oldest first');
}

/** GAP-SORT-DIRECTION: `order=desc` is the default order reversed. */
export function reversedOnRequest(reversed: boolean): Verdict {
  return reversed
    ? agreed(DECISION.sortDirection)
    : diverged(DECISION.sortDirection, 'order=desc is not the default order reversed');
}

/** GAP-LIMIT-PAGE: a page size of 1 answers one item and a next page. */
export function pageSizeHonoured(request: string, items: number, next: boolean): Verdict {
  return items === 1 && next
    ? agreed(DECISION.limitPage)
    : diverged(
        DECISION.limitPage,
        `${request} returned ${items} items and ${next ? 'a' : 'no'} next page`,
      );
}
