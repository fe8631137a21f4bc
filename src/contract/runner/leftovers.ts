/**
 * What a run must not leave, looked for as a user would, through the clean-up's target (never held
 * to openapi.yaml while it does): a sequence's objects that a get or a search still answers once
 * their collections are deleted (a delete that did not cascade, an index that kept them), and the
 * run's collections the list still shows at its end. `explore` and `replay` look the same way.
 */
import { CheckFailure } from '../failure.ts';
import { NotYet, Settle } from '../settle.ts';
import type { Target } from '../target-api/target.ts';

/** One of the run's objects, as the clean-up looks for it: its id and its collection's. */
export interface LeftObject {
  target: string;
  collection: { target: string };
}

/**
 * The sequence's objects a get or a search still answers once its clean-up is done (their
 * collections deleted): a delete that did not cascade, or an index that kept them. Each object is
 * asked for with the key that made it, and each of `words` (what the sequence planted) searched
 * for with each such key; `--settle` gives a lagging target time. What is found is ours (our id):
 * deleted where the description offers a delete of an object, then looked for again; what is
 * still answered is left behind. Objects of a collection the clean-up could not delete
 * (`keptCollections`) are that collection's, reported with it.
 */
export async function objectsLeft<O extends LeftObject>(
  cleaner: Target,
  objects: readonly O[],
  keyOf: (object: O) => string,
  settle: Settle,
  words: readonly string[],
  keptCollections: readonly string[] = [],
): Promise<string[]> {
  const kept = (object: O) =>
    keptCollections.some((left) => left.startsWith(`${object.collection.target} `));
  const byId = new Map(objects.filter((o) => !kept(o)).map((object) => [object.target, object]));
  if (byId.size === 0) return [];
  const searches = new Map<string, { key: string; word: string }>();
  if (cleaner.offers('search'))
    for (const object of byId.values())
      for (const word of words)
        searches.set(`${keyOf(object)} ${word}`, { key: keyOf(object), word });
  const found = new Map<string, string>();
  const params = (object: O) => ({
    collection_id: object.collection.target,
    object_id: object.target,
  });
  const look = async () => {
    found.clear();
    await Promise.all(
      [...searches.values()].map(async ({ key, word }) => {
        const answer = await cleaner.send('search', { key, body: { query: word } });
        if (answer.status !== 200) return;
        for (const hit of cleaner.hitsOf(answer.json) ?? []) {
          const id = cleaner.hitObjectIdOf(hit);
          if (id !== undefined && byId.has(id))
            found.set(id, `still found by a search for ${word} after its collection was deleted`);
        }
      }),
    );
    if (cleaner.offers('getObject'))
      await Promise.all(
        [...byId.values()].map(async (object) => {
          if (found.has(object.target)) return;
          const answer = await cleaner.send('getObject', {
            key: keyOf(object),
            params: params(object),
          });
          if (answer.status >= 200 && answer.status < 300)
            found.set(object.target, 'still answered after its collection was deleted');
        }),
      );
    if (found.size > 0) throw new NotYet('still found');
  };
  const settled = () =>
    settle.until(look, ['cascade', 'search']).catch((error: unknown) => {
      if (!(error instanceof CheckFailure || error instanceof NotYet)) throw error;
    });
  try {
    await settled();
    if (found.size > 0 && cleaner.offers('deleteObject')) {
      await Promise.all(
        [...found.keys()].map((id) => {
          const object = byId.get(id)!;
          return cleaner
            .send('deleteObject', { key: keyOf(object), params: params(object) })
            .catch(() => undefined);
        }),
      );
      await settled();
    }
  } catch (error) {
    return [`(could not look for the sequence's objects: ${(error as Error).message})`];
  }
  return [...found].map(([id, how]) => `object ${id} (${how})`);
}

/**
 * The run's collections the list still shows at its end, looked for with each key that holds the
 * run's data (`holders`): a collection `isOurs` recognises by the name the run gave it is
 * deleted (a create whose answer had no id, a delete that was lost), and what the list still
 * shows once `settle` gives a lagging list its window is left behind. An id listed before the run
 * (`before`) is someone else's, whatever name it shows now: never deleted. The one look-back of
 * the suite, `explore` and `replay`.
 */
export async function lookBack(
  cleaner: Target,
  holders: readonly string[],
  isOurs: (summary: unknown) => boolean,
  settle: Settle,
  before: ReadonlySet<string> = new Set(),
): Promise<string[]> {
  if (!cleaner.offers('listCollections')) return [];
  const left: string[] = [];
  const listed = async () => {
    const found: Array<{ id: string | undefined; key: string }> = [];
    for (const key of new Set(holders))
      for (const summary of await cleaner.walkCollections({ key }))
        if (isOurs(summary)) found.push({ id: cleaner.collectionIdOf(summary), key });
    return found;
  };
  try {
    // @note A create that answered something unusable leaves a record only the name can find.
    for (const { id, key } of await listed())
      if (id === undefined) left.push('a collection named for this run without an id');
      else if (before.has(id)) left.push(`${id} (listed before the run: not ours, not deleted)`);
      else if (cleaner.offers('deleteCollection'))
        await cleaner.send('deleteCollection', { key, params: { collection_id: id } });
    let still: string[] = [];
    await settle
      .until(async () => {
        still = (await listed()).flatMap(({ id }) =>
          id !== undefined && !before.has(id) ? [id] : [],
        );
        if (still.length > 0) throw new NotYet('still listed');
      })
      .catch((error: unknown) => {
        if (!(error instanceof NotYet)) throw error;
      });
    for (const id of new Set(still)) left.push(`${id} (still listed after its delete was sent)`);
  } catch (error) {
    left.push(`(could not list the run's leftovers: ${(error as Error).message})`);
  }
  return [...new Set(left)];
}
