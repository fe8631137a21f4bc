/**
 * The judges of `diff`'s profile: on the same data, the deployment decides an open point unlike
 * our openapi.yaml (the mock's), so a frontend built on the mock would be misled there. Each
 * names the decision of docs/spec-gaps.md it is about; none is a rule of the spec (the spec's own
 * rules are judged by the other judges, on the deployment's answers alone).
 */
import type { ClauseId } from '../../generated/clauses.ts';
import { firstDifference } from './difference.ts';
import { short } from './json.ts';
import { agreed, diverged, notJudged, type Verdict } from './verdict.ts';

/**
 * A list or a search's hits, of the same items on both sides, in the same order: the spec
 * states the order of collections only by creation date, with no direction and no order of ties
 * (`GAP-SORT-DIRECTION`); a search's ranking is its own (`GAP-SEARCH-RESP`).
 */
export function orderedAlike(
  decision: ClauseId,
  what: string,
  deployment: readonly string[],
  mock: readonly string[],
): Verdict {
  const sorted = (ids: readonly string[]) => JSON.stringify([...ids].sort());
  if (deployment.length < 2 || sorted(deployment) !== sorted(mock))
    return notJudged(decision, `${what}: not the same items on both sides, or fewer than two`);
  if (deployment.every((id, i) => id === mock[i])) return agreed(decision);
  const reversed = [...mock].reverse();
  const how = deployment.every((id, i) => id === reversed[i])
    ? 'in the reverse order of the mock'
    : `in another order (the first difference at item ${deployment.findIndex((id, i) => id !== mock[i]) + 1})`;
  return diverged(decision, `${what} comes ${how}`, firstDifference([...mock], [...deployment]));
}

/** A request the spec leaves the answer of open (another account's collection) answered alike. */
export function statusAlike(
  decision: ClauseId,
  request: string,
  deployment: number,
  mock: number,
): Verdict {
  return deployment === mock
    ? agreed(decision)
    : diverged(decision, `${request}: the deployment answers ${deployment}, the mock ${mock}`);
}

/**
 * `GAP-LIMIT-PAGE`: the first page of a list asked for `asked` items holds as many on both sides
 * (a deployment that cuts a page to its own limit, with more to come, pages otherwise).
 */
export function pageHeldAlike(
  what: string,
  asked: number,
  deployment: { items: number; more: boolean },
  mock: { items: number; more: boolean },
): Verdict {
  const cut = (page: { items: number; more: boolean }) => page.items < asked && page.more;
  if (!cut(deployment) && !cut(mock)) return agreed('GAP-LIMIT-PAGE');
  if (cut(deployment) === cut(mock) && deployment.items === mock.items)
    return agreed('GAP-LIMIT-PAGE');
  return diverged(
    'GAP-LIMIT-PAGE',
    `${what}: a page of ${asked} asked for holds ${deployment.items} on the deployment${deployment.more ? ' with more to come' : ''}, ${mock.items} on the mock${mock.more ? ' with more to come' : ''}`,
  );
}

/**
 * `GAP-SEARCH-MATCH`: a search for one word finds the same objects on both sides, where neither
 * side's answer may be one page of many (`whole`).
 */
export function foundAlike(
  request: string,
  deployment: readonly string[],
  mock: readonly string[],
  whole: boolean,
): Verdict {
  if (!whole)
    return notJudged('GAP-SEARCH-MATCH', `${request}: one side's hits may be one page of many`);
  const missing = mock.filter((id) => !deployment.includes(id));
  const extra = deployment.filter((id) => !mock.includes(id));
  if (missing.length === 0 && extra.length === 0) return agreed('GAP-SEARCH-MATCH');
  return diverged(
    'GAP-SEARCH-MATCH',
    `${request}: the deployment ${[
      missing.length ? `does not find ${short(missing)}, which the mock finds` : '',
      extra.length ? `finds ${short(extra)}, which the mock does not` : '',
    ]
      .filter(Boolean)
      .join(', and ')}`,
  );
}

/**
 * What a target description declares unlike our document: `theirs` and `ours` are the two
 * descriptions' values of one decision (paths, fields, statuses, a page-size limit).
 */
export function declaredAlike(
  decision: ClauseId,
  what: string,
  theirs: unknown,
  ours: unknown,
): Verdict {
  const difference = firstDifference(ours, theirs);
  return difference === undefined
    ? agreed(decision)
    : diverged(
        decision,
        `${what}: the deployment's description says ${short(theirs)}, our document ${short(ours)}`,
        difference,
      );
}
