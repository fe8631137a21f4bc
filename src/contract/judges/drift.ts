/**
 * The judges of `diff`'s profile: on the same data, the deployment decides an open point unlike
 * our openapi.yaml (the mock's), so a frontend built on the mock would be misled there. Each
 * names the decision of docs/spec-gaps.md it is about; none is a rule of the spec (the spec's own
 * rules are judged by the other judges, on the deployment's answers alone).
 */
import type { ClauseId } from '../../generated/clauses.ts';
import type { TargetDescription } from '../target-api/description.ts';
import { firstDifference } from './difference.ts';
import { short } from './json.ts';
import { agreed, diverged, notJudged, type Verdict } from './verdict.ts';

/**
 * A list or a search's hits, of the same items on both sides, in the same order: the spec
 * states the order of collections only by creation date, with no direction and no order of ties
 * (`GAP-SORT-DIRECTION`); a search's ranking is its own (`GAP-SEARCH-RESP`).
 */
function orderedAlike(
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

/** `GAP-SORT-DIRECTION`: a list of the same items comes in the same order on both sides. */
export function listedAlike(
  what: string,
  deployment: readonly string[],
  mock: readonly string[],
): Verdict {
  return orderedAlike('GAP-SORT-DIRECTION', what, deployment, mock);
}

/** `GAP-SEARCH-RESP`: the same hits come ranked alike on both sides. */
export function rankedAlike(
  what: string,
  deployment: readonly string[],
  mock: readonly string[],
): Verdict {
  return orderedAlike('GAP-SEARCH-RESP', what, deployment, mock);
}

/** `GAP-ISOLATION`: another account's collection, asked for, is refused with the same status. */
export function notYoursAlike(request: string, deployment: number, mock: number): Verdict {
  return deployment === mock
    ? agreed('GAP-ISOLATION')
    : diverged(
        'GAP-ISOLATION',
        `${request}: the deployment answers ${deployment}, the mock ${mock}`,
      );
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
function declaredAlike(decision: ClauseId, what: string, theirs: unknown, ours: unknown): Verdict {
  const difference = firstDifference(ours, theirs);
  return difference === undefined
    ? agreed(decision)
    : diverged(
        decision,
        `${what}: the deployment's description says ${short(theirs)}, our document ${short(ours)}`,
        difference,
      );
}

/** Our document's own answers where the spec leaves them open (the mock's), by decision. */
const OURS = { pageSize: 100, gone: [404], notYours: [404] };

function pick<T extends object>(value: T, keys: ReadonlyArray<keyof T>): Partial<T> {
  return Object.fromEntries(
    keys.filter((key) => value[key] !== undefined).map((key) => [key, value[key]]),
  ) as Partial<T>;
}

/**
 * A description's statuses as ours compare: one that allows 404 among others (the default, the
 * spec's own) decides nothing unlike ours.
 */
function statusesOf(statuses: readonly number[]): readonly number[] {
  return statuses.length > 1 && statuses.includes(404) ? [404] : statuses;
}

/**
 * Where a list's items are, and its next page where the description pages by one (a token or a
 * link): numbered and offset pages have none, whatever default the description was filled with.
 */
function pageFields(d: TargetDescription): Partial<TargetDescription['list']> {
  const { pageToken, follow } = d.paging;
  return pageToken !== undefined || follow ? d.list : { items: d.list.items };
}

const operation = (d: TargetDescription, name: keyof TargetDescription['operations']) => {
  const template = d.operations[name];
  return template ? `${template.method} ${template.path}` : undefined;
};

/**
 * Each decision a target description (`theirs`) declares, held against our document's
 * (`ours`, the default description, and our page size and statuses): paths, fields, paging,
 * a search's request and hits, the largest page, the statuses of gone and not yours.
 */
export function declaredDecisions(
  theirs: TargetDescription,
  ours: TargetDescription,
): Array<{ what: string; verdict: Verdict }> {
  const search = (d: TargetDescription) => d.operations.search;
  const hits = ['hits', 'hitObjectId', 'hitObject', 'hitContent'] as const;
  const collection = ['id', 'name', 'metadata', 'createdAt', 'objectCount'] as const;
  const object = ['id', 'content', 'systemFields'] as const;
  const table: Array<[ClauseId, string, unknown, unknown]> = [
    [
      'GAP-PATHS',
      'the paths of the list and of a collection',
      [operation(theirs, 'listCollections'), operation(theirs, 'getCollection')],
      [operation(ours, 'listCollections'), operation(ours, 'getCollection')],
    ],
    [
      'GAP-OBJ-PATH',
      "the paths of a collection's objects and of an object",
      [operation(theirs, 'listObjects'), operation(theirs, 'getObject')],
      [operation(ours, 'listObjects'), operation(ours, 'getObject')],
    ],
    ['GAP-SEARCH-METHOD', "a search's method", search(theirs)?.method, search(ours)?.method],
    ['GAP-SEARCH-PATH', "a search's path", search(theirs)?.path.split('?')[0], search(ours)?.path],
    [
      'GAP-SEARCH-REQ',
      "a search's request",
      theirs.bodies.search ?? search(theirs)?.path.split('?')[1],
      ours.bodies.search,
    ],
    ['GAP-SEARCH-RESP', "a search's hits", pick(theirs.search, hits), pick(ours.search, hits)],
    ['GAP-PAGE-PARAMS', 'how a list is paged', theirs.paging, ours.paging],
    [
      'GAP-PAGE-FIELDS',
      "where a list page's items and next page are",
      pageFields(theirs),
      pageFields(ours),
    ],
    ['GAP-COLL-GET', 'where a get shows its collection', theirs.collection.in, ours.collection.in],
    [
      'GAP-COLL-FIELDS',
      "a collection's fields",
      pick(theirs.collection, collection),
      pick(ours.collection, collection),
    ],
    ['GAP-OBJ-RESP', 'where a get shows its object', theirs.object.in, ours.object.in],
    [
      'GAP-OBJ-FIELDS',
      "an object's fields",
      pick(theirs.object, object),
      pick(ours.object, object),
    ],
    [
      'GAP-LIMIT-PAGE',
      'the largest page a list takes',
      theirs.limits.pageSize ?? OURS.pageSize,
      OURS.pageSize,
    ],
    ['GAP-STATES', 'the status of what was deleted', statusesOf(theirs.statuses.gone), OURS.gone],
    [
      'GAP-ISOLATION',
      "the status of another account's resource",
      statusesOf(theirs.statuses.notYours),
      OURS.notYours,
    ],
  ];
  // @note What a description does not describe (an operation it does not offer) it decides
  // nothing of: left out, and in a pair, taken as ours.
  return table.flatMap(([decision, what, mine, doc]) => {
    const described = Array.isArray(mine)
      ? mine.map((value: unknown, i) => value ?? (doc as unknown[])[i])
      : mine;
    return described === undefined
      ? []
      : [{ what, verdict: declaredAlike(decision, what, described, doc) }];
  });
}
