/**
 * The judges of a whole list walked page by page: each of the run's collections shown once
 * (COLL-LIST-2) and in creation order (COLL-LIST-3). A walk that did not reach the end of the
 * list judges neither: what it did not see could break both.
 */
import type { ClauseId } from '../../generated/clauses.ts';
import { agreed, diverged, notJudged, type Verdict } from './verdict.ts';

/** The rules about a whole list: a walk that cannot reach its end judges neither. */
export const WHOLE_LIST_CLAUSES = [
  'COLL-LIST-2',
  'COLL-LIST-3',
] as const satisfies readonly ClauseId[];

/** Why a walk did not reach the end of the list, if it did not (a cut, no way to ask for more). */
export type Reach = { whole: true } | { whole: false; why: string };

/** COLL-LIST-2: every one of the run's collections a correct target lists, exactly once. */
export function eachOnce(
  reach: Reach,
  expected: readonly number[],
  seen: readonly number[],
): Verdict {
  if (!reach.whole) return notJudged('COLL-LIST-2', reach.why);
  if (expected.length === 0 && seen.length === 0)
    return notJudged('COLL-LIST-2', "none of the run's collections to list");
  const sorted = (list: readonly number[]) => [...list].sort((a, b) => a - b);
  const [want, got] = [sorted(expected), sorted(seen)];
  if (JSON.stringify(want) === JSON.stringify(got)) return agreed('COLL-LIST-2');
  const twice = got.filter((n, i) => got.indexOf(n) !== i);
  const lacking = want.filter((n) => !got.includes(n));
  const parts = [
    lacking.length > 0 ? `lacks #${lacking.join(', #')}` : '',
    twice.length > 0 ? `shows #${[...new Set(twice)].join(', #')} more than once` : '',
    got.some((n) => !want.includes(n))
      ? `shows #${got.filter((n) => !want.includes(n)).join(', #')}, which it must not`
      : '',
  ].filter(Boolean);
  return diverged(
    'COLL-LIST-2',
    `the run's collections, each once: the walk ${parts.join('; ') || `shows ${JSON.stringify(got)}, not ${JSON.stringify(want)}`}`,
  );
}

/**
 * COLL-LIST-3: the run's collections come in creation order, either direction (the spec states
 * none: GAP-SORT-DIRECTION); collections with one creation date may come in any order. Judged
 * only where the order could be wrong: at least two distinct creation dates among them.
 */
export function creationOrder(
  reach: Reach,
  expected: readonly number[],
  seen: readonly number[],
  created: ReadonlyMap<number, number | undefined>,
): Verdict {
  if (!reach.whole) return notJudged('COLL-LIST-3', reach.why);
  const dates = new Set(seen.map((n) => created.get(n) ?? `#${n}`));
  if (seen.length < 2 || dates.size < 2)
    return notJudged(
      'COLL-LIST-3',
      seen.length < 2
        ? "fewer than two of the run's collections to order"
        : "the run's collections listed share one creation date: any order is right",
    );
  const reversed = [...expected].reverse();
  if ([expected, reversed].some((order) => inOrder(seen, order, created)))
    return agreed('COLL-LIST-3');
  return diverged(
    'COLL-LIST-3',
    `the run's collections, in order: the walk shows #${seen.join(', #')}, created in the order #${expected.join(', #')}`,
  );
}

/**
 * Whether `seen` lists the same collections as `order`, in its order, except among collections
 * with one creation date (`created`): the spec orders by creation date, so a tie is in any order.
 */
export function inOrder(
  seen: readonly number[],
  order: readonly number[],
  created: ReadonlyMap<number, number | undefined>,
): boolean {
  if (JSON.stringify([...seen].sort()) !== JSON.stringify([...order].sort())) return false;
  const rank = new Map(order.map((n, i) => [n, i]));
  for (let i = 0; i < seen.length; i++)
    for (let j = i + 1; j < seen.length; j++) {
      const [a, b] = [seen[i]!, seen[j]!];
      const tie = created.get(a) !== undefined && created.get(a) === created.get(b);
      if (!tie && rank.get(a)! > rank.get(b)!) return false;
    }
  return true;
}

/**
 * COLL-LIST-2: a walk the target broke off (a page refused, a token repeated, a page past its
 * end) fails the list; a page that breaks openapi.yaml (`--level profile`) names its decision.
 */
export function walkBroken(message: string, decision?: ClauseId): Verdict {
  return diverged(decision ?? 'COLL-LIST-2', message);
}

/**
 * COLL-LIST-2, with writes between pages: a walk by tokens or links sees each collection that
 * lived through it exactly once. Numbered and offset pages shift when an earlier item comes or
 * goes: that is how such paging works, so a walk by them is held to nothing more.
 */
export function livedThroughOnce(
  reach: Reach,
  positional: boolean,
  survivors: readonly number[],
  seen: readonly number[],
): Verdict {
  if (!reach.whole) return notJudged('COLL-LIST-2', reach.why);
  if (survivors.length === 0 && seen.length === 0)
    return notJudged('COLL-LIST-2', "none of the run's collections lived through the walk");
  if (positional)
    return notJudged(
      'COLL-LIST-2',
      'pages by number or offset shift when a collection is created or deleted between them',
    );
  const twice = seen.find((n, i) => seen.indexOf(n) !== i);
  if (twice !== undefined)
    return diverged('COLL-LIST-2', `the walk showed collection #${twice} twice`);
  const missed = survivors.filter((n) => !seen.includes(n));
  if (missed.length > 0)
    return diverged(
      'COLL-LIST-2',
      `the walk never showed collection${missed.length > 1 ? 's' : ''} #${missed.join(', #')}, which lived through it`,
    );
  return agreed('COLL-LIST-2');
}

/**
 * ISO-1, on a walk whose later pages another key asks for with the first key's token or link:
 * each page shows only collections of the key that asked for it (a refusal is as right).
 */
export function pagesOfTheirKey(foreign?: { page: number; key: string; n: number }): Verdict {
  if (!foreign) return agreed('ISO-1');
  return diverged(
    'ISO-1',
    `page ${foreign.page}, asked for with key ${foreign.key}, showed collection #${foreign.n}, which that key's account does not own`,
  );
}

/** OBJ-1: a walk of a collection's objects the target broke off (a page refused, a token repeated). */
export function listBroken(message: string): Verdict {
  return diverged('OBJ-1', message);
}

/** COLL-LIST-3: creation dates along a whole list never go down, or never go up. */
export function sortedByCreation(what: string, dates: readonly number[]): Verdict {
  const rising = dates.every((date, i) => i === 0 || date >= dates[i - 1]!);
  const falling = dates.every((date, i) => i === 0 || date <= dates[i - 1]!);
  if (dates.length < 2 || new Set(dates).size < 2)
    return notJudged('COLL-LIST-3', 'fewer than two distinct creation dates to order');
  return rising || falling
    ? agreed('COLL-LIST-3')
    : diverged('COLL-LIST-3', `${what} is not sorted by creation date`);
}

/** COLL-LIST-2: one walk of the list shows each collection once. */
export function eachShownOnce(what: string, ids: readonly string[]): Verdict {
  const repeated = ids.find((id, i) => ids.indexOf(id) !== i);
  return repeated === undefined
    ? agreed('COLL-LIST-2')
    : diverged('COLL-LIST-2', `collection ${repeated} appears twice in ${what}`);
}

/** COLL-LIST-2: walks of one list in two page sizes show the same collections. */
export function noneSkipped(message: string, skipped: number): Verdict {
  return skipped === 0 ? agreed('COLL-LIST-2') : diverged('COLL-LIST-2', message);
}

/**
 * A verdict on the whole list from a walk that may have stopped short of its end (`short`): a
 * rule that the list shows something (`shows`) is not found broken, since it may be further on;
 * a rule that it leaves something out (`leavesOut`) does not pass, since it may be further on.
 * What the walk did see still decides the rest: an item found, an item it must not show.
 */
export function onPartOfTheList(
  verdict: Verdict,
  short: string | undefined,
  rule: 'shows' | 'leavesOut',
): Verdict {
  if (short === undefined) return verdict;
  const unproven = rule === 'shows' ? 'diverged' : 'agreed';
  return verdict.outcome === unproven ? notJudged(verdict.clause, short) : verdict;
}
