/**
 * The judges of what a read shows of the run's own resources: a list or a search shows what a
 * correct target shows (COLL-LIST-1, OBJ-1, SEARCH-1), and nothing it must not (another
 * account's: ISO-1; deleted: DEL-1, DEL-2, DEL-3). The target's other data, its ranking and its
 * paging are never compared here.
 */
import type { ClauseId } from '../../generated/clauses.ts';
import { shownClause, type CollectionState, type KeyName, type ObjectState } from './clause-of.ts';
import { apart, short } from './json.ts';
import { agreed, diverged, notJudged, type Verdict } from './verdict.ts';
import type { Reach } from './walks.ts';

/** One of the run's resources a read may show, named as messages name it (`#3`, an id). */
export interface Sighting {
  readonly name: string;
  readonly state: CollectionState | ObjectState;
  /** Whether the read showed it. */
  readonly shown: boolean;
}

const WHY: Partial<Record<ClauseId, string>> = {
  'ISO-1': "another account's",
  'DEL-1': 'a deleted collection',
  'DEL-2': 'an object of a deleted collection',
  'DEL-3': 'deleted',
};

/**
 * A read by `key` shows none of the run's resources it must not (`mayShow` says which it may;
 * `candidates` are all the run's, each with whether the read showed it). The first it must not
 * show breaks the clause of why (shownClause): another account's, deleted, else `otherwise`
 * (`otherwiseWhy`: outside the scope, without the word). Judged only where the run has something
 * the read must leave out: else it could not have failed.
 */
export function nothingHidden(
  what: string,
  candidates: readonly Sighting[],
  mayShow: (state: CollectionState | ObjectState) => boolean,
  key: KeyName | null,
  otherwise: ClauseId,
  otherwiseWhy: string,
  /**
   * Of what it must leave out, what a faulty read would show (default: all of it): a search
   * leaves out objects without its word whatever its scope, so only an object holding the word
   * (or having held it) puts a scope, a delete or an account to the test.
   */
  tempting: (state: CollectionState | ObjectState) => boolean = () => true,
): Verdict {
  const hidden = candidates.filter((candidate) => !mayShow(candidate.state));
  const strays = hidden.filter((candidate) => candidate.shown);
  const tested = hidden.filter((candidate) => tempting(candidate.state));
  if (strays.length === 0)
    return tested.length === 0
      ? notJudged(otherwise, `nothing of the run's that ${what} must leave out existed`)
      : agreed(shownClause(tested[0]!.state, key, otherwise));
  const clause = shownClause(strays[0]!.state, key, otherwise);
  const why = WHY[clause] ?? otherwiseWhy;
  const names = strays.map((stray) => stray.name).join(', ');
  return diverged(
    clause,
    `${what} shows ${names}, which it must not (${strays.length > 1 ? 'the first: ' : ''}${why})`,
  );
}

/**
 * A read shows every one of the run's resources a correct target shows (`expected`, by name),
 * at least `least` of them where the target may cut its answer (a search's first page).
 */
export function allShown(
  clause: ClauseId,
  what: string,
  expected: readonly string[],
  seen: readonly string[],
  least = expected.length,
  cut = '',
): Verdict {
  if (least === 0) return notJudged(clause, `nothing of the run's that ${what} must show existed`);
  const found = expected.filter((name) => seen.includes(name));
  if (found.length >= least) return agreed(clause);
  const lacking = expected.filter((name) => !seen.includes(name));
  return diverged(
    clause,
    `${what} shows ${found.length === 0 ? 'none' : found.join(', ')} of the run's ${expected.join(', ')}: it lacks ${lacking.join(', ')}${cut}`,
  );
}

/**
 * SEARCH-1: a hit shows what its object holds now, not what it held before a replace or an
 * update (a stale index); where the description says where a hit holds content
 * (`search.hitContent`), nothing else.
 */
export function hitShowsContent(
  n: number,
  holdsNow: boolean,
  holdsEarlier: boolean,
  shown: { content: unknown } | undefined,
  now: unknown,
): Verdict {
  if (holdsNow || (!shown && !holdsEarlier)) return agreed('SEARCH-1');
  if (shown) return apart('SEARCH-1', `the hit of object #${n}`, 'the object', now, shown.content);
  return diverged(
    'SEARCH-1',
    `the hit of object #${n} shows content the object held before it was replaced or updated, not what it holds now (${short(now)})`,
  );
}

/**
 * OBJ-1: a collection's objects, walked whole, are the ones a correct target holds in it, no
 * more and no fewer (`#n` for the run's, `not the run’s` for any other). A walk that did not
 * reach the end (`reach`) judges nothing: what it did not see could break it.
 */
export function sameItems(
  reach: Reach,
  what: string,
  expected: readonly string[],
  seen: readonly string[],
): Verdict {
  if (!reach.whole) return notJudged('OBJ-1', reach.why);
  const sorted = (list: readonly string[]) => JSON.stringify([...list].sort());
  return sorted(expected) === sorted(seen)
    ? agreed('OBJ-1')
    : diverged(
        'OBJ-1',
        `${what}: a correct target holds ${sorted(expected)}, the target ${sorted(seen)}`,
      );
}

/** SEARCH-1: a search answers a list of hits (where its description says they are). */
export function hitsListed(hits: readonly unknown[] | undefined): Verdict {
  return hits === undefined
    ? diverged('SEARCH-1', 'the target’s answer shows no list of hits')
    : agreed('SEARCH-1');
}

/**
 * AUTH-1: a refused request shows none of the caller's data (an id or a name the key's account
 * holds), whatever status it got.
 */
export function refusalShowsNothing(
  request: string,
  leaked: string | undefined,
  whose: 'the caller' | 'another account' = 'the caller',
): Verdict {
  // @note Another account's data in an answer to this one breaks isolation, not authentication.
  const clause = whose === 'another account' ? 'ISO-1' : 'AUTH-1';
  return leaked === undefined ? agreed(clause) : diverged(clause, `${request} leaked ${leaked}`);
}

/** ISO-1: no collection is listed for two accounts. */
export function listedForOneAccount(shared: readonly string[]): Verdict {
  return shared.length === 0
    ? agreed('ISO-1')
    : diverged('ISO-1', `collection ${shared[0]} is listed for both accounts`);
}

/**
 * SEARCH-1, on data the run did not make: an object is found by a search for one of its own
 * words (`tried`: the words that did not find it, of `tries`). Not judged where every search
 * that missed it answered as many hits as may be one page of many (`surelyWhole`).
 */
export function foundByItsWords(
  id: string,
  tried: ReadonlyArray<{ word: string; hits: number }>,
  tries: number,
  surelyWhole: number,
): Verdict {
  if (tried.length < tries) return agreed('SEARCH-1');
  if (tried.some((t) => t.hits >= surelyWhole))
    return notJudged(
      'SEARCH-1',
      `the existing objects' words are too common to judge one search (${surelyWhole} hits or more, which may be one page of many)`,
    );
  return diverged(
    'SEARCH-1',
    `searching for ${tried.map((t) => `"${t.word}" (${t.hits} hits)`).join(', ')} never finds object ${id}, which contains each`,
  );
}

/**
 * On data the run did not make (`diff`): a list or a search by one key shows only what a get by
 * that key answers. An item another account holds (`others`) breaks ISO-1; one whose get answers
 * it absent (`absent`: gone, or not found) breaks DEL-1 for a collection, DEL-3 for an object
 * (the spec's only way an item a target showed can be absent). Judged only where the read showed
 * items whose gets were asked (`asked`).
 */
export function shownYetAbsent(
  what: string,
  kind: 'collection' | 'object',
  asked: number,
  absent: ReadonlyArray<{ id: string; status: number }>,
  others: readonly string[],
): Verdict {
  const clause: ClauseId = kind === 'collection' ? 'DEL-1' : 'DEL-3';
  if (others.length > 0)
    return diverged('ISO-1', `${what} shows ${others.join(', ')}, which another account holds`);
  if (absent.length > 0)
    return diverged(
      clause,
      `${what} shows ${absent.map((each) => `${each.id} (its get answers ${each.status})`).join(', ')}: a ${kind} the target answers as absent`,
    );
  return asked === 0
    ? notJudged(clause, `${what} showed no ${kind} whose get was asked`)
    : agreed(clause);
}

/**
 * ISO-1 on data the run did not make: another account's collection, asked for with the full key,
 * is refused (any refusal: which one is the description's to say, and `diff`'s to compare).
 */
export function otherAccountRefused(request: string, status: number): Verdict {
  return status >= 200 && status < 300
    ? diverged('ISO-1', `${request} answered ${status}: another account's collection, shown`)
    : agreed('ISO-1');
}

/** SEARCH-1: a search for a word the data holds is answered, not refused. */
export function searchAnswered(request: string, status: number): Verdict {
  return status >= 200 && status < 300
    ? agreed('SEARCH-1')
    : diverged('SEARCH-1', `${request} answered ${status}, not a success`);
}
