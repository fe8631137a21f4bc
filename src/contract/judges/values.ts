/**
 * The judges of what a resource shows: its id once created (COLL-1, OBJ-2), its object count
 * (COLL-2), its metadata (COLL-3), its system fields (OBJ-3) and its content (OBJ-GET-1). The
 * values a correct target may show come from the expectations model (one per update style the
 * description allows); the judges only compare.
 */
import type { ClauseId } from '../../generated/clauses.ts';
import { agreed, diverged, notJudged, type Verdict } from './verdict.ts';
import { apart, sameJson, short } from './json.ts';

/** COLL-1: a create answers the collection it made, with an id, and one of the run's own. */
export function collectionCreated(id: string | undefined, refused?: string): Verdict {
  if (refused !== undefined) return diverged('COLL-1', `the create answered ${refused}`);
  if (id === undefined) return diverged('COLL-1', 'the created collection has no id');
  return agreed('COLL-1');
}

/**
 * OBJ-2: a created object has an id, one that no other object of the run holds (an id handed
 * out again after a delete makes the old reference fetch the new object).
 */
export function objectCreated(
  id: string | undefined,
  holder?: { n: number; deleted: boolean },
): Verdict {
  if (id === undefined) return diverged('OBJ-2', 'the created object has no id');
  if (holder)
    return diverged(
      'OBJ-2',
      `the created object got id ${id}, the id of object #${holder.n}${holder.deleted ? ' (deleted before)' : ''}: one identifier for two objects`,
    );
  return agreed('OBJ-2');
}

/**
 * SVC-1 (collections are named): a name a collection shows is the one it was last given, by its
 * create or a rename. A summary or get that shows no name is not judged: the spec states no name
 * field, only that collections are named.
 */
export function nameAsGiven(where: string, given: string | undefined, shown: unknown): Verdict {
  if (given === undefined || shown === undefined)
    return notJudged('SVC-1', 'no name to compare: none given, or none shown');
  return sameJson(given, shown)
    ? agreed('SVC-1')
    : apart('SVC-1', where, 'the run gave it', given, shown);
}

/** COLL-2: the object count a summary shows is the one a correct target shows. */
export function objectCount(
  where: string,
  expected: unknown,
  shown: unknown,
  expectedBy: string,
): Verdict {
  return sameJson(expected, shown)
    ? agreed('COLL-2')
    : apart('COLL-2', where, expectedBy, expected, shown);
}

/**
 * COLL-3: the metadata shown is what the run's writes left, by one of the update styles the
 * description allows (`allowed`, the first the one it declares or replace).
 */
export function metadataAsWritten(
  where: string,
  allowed: readonly unknown[],
  shown: unknown,
  expectedBy: string,
): Verdict {
  return allowed.some((value) => sameJson(value, shown))
    ? agreed('COLL-3')
    : apart('COLL-3', where, expectedBy, allowed[0], shown);
}

/**
 * COLL-3: after updates sent at once, the metadata shows one of them whole (`a` and `b` from
 * the same one), as some serial order would leave it.
 */
export function oneUpdateWhole(
  sent: ReadonlyArray<Record<string, unknown>>,
  shown: Record<string, unknown> | undefined,
  what: string,
): Verdict {
  const whole = sent.some((each) => each.a === shown?.a && each.b === shown?.b);
  return whole
    ? agreed('COLL-3')
    : diverged(
        'COLL-3',
        `after ${sent.length} updates at once, ${what} shows a ${short(shown?.a)} and b ${short(shown?.b)}: no one update whole, as no serial order would leave it`,
      );
}

/**
 * OBJ-3 and OBJ-GET-1: an object shows every system field. Never shown, the service did not add
 * them (OBJ-3); shown by an earlier answer about it and lacking now, a get no longer returns the
 * object's complete data (OBJ-GET-1).
 */
export function systemFields(missing: readonly string[], shownBy?: string): Verdict {
  if (missing.length === 0) return agreed('OBJ-3');
  return shownBy
    ? diverged('OBJ-GET-1', `the object lacks ${missing.join(', ')}, which ${shownBy} showed`)
    : diverged('OBJ-3', `the object lacks ${missing.join(', ')}`);
}

/**
 * OBJ-GET-1: a get shows the content the run's writes left, by one of the allowed update styles
 * (`holds` says whether the object shows a value: where the description puts content, or
 * wherever it may stand when it says not).
 */
export function contentAsWritten(
  allowed: readonly unknown[],
  holds: (content: unknown) => boolean,
  shown: unknown,
  expectedBy: string,
): Verdict {
  if (allowed.length === 0 || allowed[0] === undefined || allowed.some(holds))
    return agreed('OBJ-GET-1');
  return apart('OBJ-GET-1', 'its content', expectedBy, allowed[0], contentShown(shown, allowed[0]));
}

/**
 * What of an object a message compares with the content sent, where the description does not say
 * where content lives: the field of it most like the content (`content`, `body`, `data`…), or
 * the object's own fields of the content's keys (a target that keeps user data beside the
 * system fields); the whole object where none shares a key with it.
 */
function contentShown(object: unknown, content: unknown): unknown {
  const isRecord = (value: unknown): value is Record<string, unknown> =>
    value !== null && typeof value === 'object' && !Array.isArray(value);
  if (!isRecord(object) || !isRecord(content)) return object;
  const keys = Object.keys(content);
  const own = Object.fromEntries(
    keys.filter((key) => Object.hasOwn(object, key)).map((key) => [key, object[key]]),
  );
  const likeness = (candidate: Record<string, unknown>) =>
    keys.filter((key) => Object.hasOwn(candidate, key)).length +
    keys.filter((key) => sameJson(candidate[key], content[key])).length;
  let best: Record<string, unknown> | undefined;
  for (const candidate of [...Object.values(object).filter(isRecord), own])
    if (likeness(candidate) > (best ? likeness(best) : 0)) best = candidate;
  return best ?? object;
}

/**
 * Whether an object as a target answers it holds the content as sent: whole under one field
 * (`content` in our document, `body` or `data` elsewhere: descriptions do not name it), or as the
 * object's own fields (a target that keeps user data beside the system fields). `located` is the
 * content where the description says it lives: there and nowhere else.
 */
export function holdsContent(
  object: unknown,
  content: unknown,
  located?: { content: unknown },
): boolean {
  if (located) return sameJson(located.content, content);
  if (!object || typeof object !== 'object') return false;
  const record = object as Record<string, unknown>;
  if (Object.values(record).some((value) => sameJson(value, content))) return true;
  return Object.entries(content as Record<string, unknown>).every(([k, v]) =>
    sameJson(record[k], v),
  );
}

/**
 * A write refused cleanly at a limit (400, 413, 422) stored nothing: a read-back that shows what
 * it sent is a refusal half applied, judged by the clause of what it shows (`shown`: how).
 */
export function refusedStoredNothing(
  readBack: keyof typeof READ_BACK,
  what: string,
  shown?: string,
): Verdict {
  const clause = READ_BACK[readBack];
  return shown === undefined
    ? agreed(clause)
    : diverged(clause, `${what} was refused, yet ${shown}: a refusal that stored what it refused`);
}

/** The clause of what a refused write is read back by: a collection's metadata, an object's content, a count, the list. */
const READ_BACK = {
  metadata: 'COLL-3',
  content: 'OBJ-GET-1',
  count: 'COLL-2',
  list: 'COLL-LIST-1',
} as const satisfies Record<string, ClauseId>;

/** ERR-401-5: a create a key without permission had refused made no collection all the same. */
export function refusedWriteChangedNothing(made: number): Verdict {
  return made === 0
    ? agreed('ERR-401-5')
    : diverged('ERR-401-5', 'a create refused with 401 made a collection all the same');
}

/**
 * COLL-GET-1 or OBJ-2: a get by an identifier answers the resource of that identifier (a get
 * that answers one fixed resource whatever the id is wrong for all but one).
 */
export function fetchedAsAsked(
  clause: ClauseId,
  request: string,
  asked: string,
  returned: string | undefined,
): Verdict {
  return returned === asked
    ? agreed(clause)
    : diverged(clause, `${request} returned ${String(returned)}, not ${asked}`);
}

/** OBJ-GET-1: a get shows every word the object's listing showed of its content. */
export function wordsKept(id: string, lost: readonly string[]): Verdict {
  return lost.length === 0
    ? agreed('OBJ-GET-1')
    : diverged(
        'OBJ-GET-1',
        `object ${id}, fetched, lacks words its listing showed: ${lost.slice(0, 5).join(', ')}`,
      );
}

/** COLL-2 and COLL-3: a summary carries an object count and metadata where its description says. */
export function summaryHolds(
  id: string,
  count: unknown,
  metadata: unknown,
  at: { objectCount: string; metadata: string },
): Verdict {
  if (count === undefined)
    return diverged('COLL-2', `${id} has no object count (a whole number at ${at.objectCount})`);
  if (metadata === undefined) return diverged('COLL-3', `${id} has no metadata at ${at.metadata}`);
  return agreed('COLL-2');
}

/** COLL-2: a collection's count is at least the objects seen in it (a search is one page). */
export function countsAtLeast(what: string, count: unknown, seen: number, how: string): Verdict {
  return typeof count === 'number' && count >= seen
    ? agreed('COLL-2')
    : diverged('COLL-2', `${what} reports ${String(count)} objects, yet ${how} ${seen}`);
}
