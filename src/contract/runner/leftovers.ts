/**
 * What a run must not leave, looked for as a user would, through the clean-up's target (never held
 * to openapi.yaml while it does): a sequence's objects that a get or a search still answers once
 * their collections are deleted (a delete that did not cascade, an index that kept them), and the
 * run's collections the list still shows at its end. `explore` and `replay` look the same way.
 */
import type { ContractClient } from '../client.ts';
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
 * The run's collections the list still shows at its end, with every key the run was given
 * that holds data (the full key's account, the other account's): each a leftover of a
 * clean-up whose delete was answered, or that never ran. The clean-up's client gets
 * `deadlineMs` for it.
 */
export async function lookBack(
  cleaner: Target,
  cleanerClient: ContractClient,
  keys: { full: string; otherAccount?: string | undefined },
  runId: string,
  deadlineMs: number,
): Promise<string[]> {
  if (!cleaner.offers('listCollections')) return [];
  cleanerClient.cleaningUp(deadlineMs);
  const holders = [keys.full, keys.otherAccount].filter((key): key is string => key !== undefined);
  const listed = async () => {
    const found: Array<{ id: string | undefined; key: string }> = [];
    for (const key of holders)
      for (const summary of await cleaner.walkCollections({ key })) {
        const shown = cleaner.nameOf(summary) ?? JSON.stringify(summary ?? null);
        if (shown.includes(`answers-contract-${runId}-`))
          found.push({ id: cleaner.collectionIdOf(summary), key });
      }
    return found;
  };
  try {
    // @note Named by this run, so ours: deleted (a create whose answer had no id, a delete
    // that was lost), then listed again; what is still listed is left behind.
    for (const { id, key } of await listed())
      if (id !== undefined && cleaner.offers('deleteCollection'))
        await cleaner.send('deleteCollection', { key, params: { collection_id: id } });
    return (await listed()).map(
      ({ id }) => `${id ?? '(no id)'} (still listed after the run's clean-up)`,
    );
  } catch (error) {
    return [`(could not list the run's leftovers: ${(error as Error).message})`];
  }
}
