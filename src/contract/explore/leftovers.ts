/**
 * What a run of `explore` must not leave: the sequence's objects a search still finds after its clean-up (an index that
 * kept them), and the run's collections the list still shows at its end. Each is looked at through
 * the clean-up's target, never held to openapi.yaml while it does.
 */
import type { ContractClient } from '../client.ts';
import { CheckFailure } from '../failure.ts';
import { NotYet, Settle } from '../settle.ts';
import type { Target } from '../target-api/target.ts';
import type { Keys } from './comparison.ts';
import { WORDS } from './step-kind.ts';
import type { World } from './world.ts';

/**
 * The sequence's objects a search still finds once its clean-up is done (their collections
 * deleted): an index that kept them. One search per word the sequence planted, with each key
 * that made objects, through the clean-up's client; `--settle` gives a lagging index time.
 * What is found is ours (our id, our word): deleted where the description offers a delete of
 * an object, then looked for again; what a search still finds is left behind.
 */
export async function orphans(
  cleaner: Target,
  keys: Keys,
  settleMs: number,
  world: World,
): Promise<string[]> {
  if (!cleaner.offers('search') || world.expected.objects.length === 0) return [];
  const asked = new Map<string, { key: string; word: string }>();
  for (const pair of world.expected.objects) {
    const key = world.keys[pair.key] ?? keys.full;
    for (let w = 0; w < WORDS; w++) asked.set(`${key} ${w}`, { key, word: world.word(w) });
  }
  const byId = new Map(world.expected.objects.map((pair) => [pair.target, pair]));
  const ours = new Set(byId.keys());
  const found = new Map<string, string>();
  const remove = async () => {
    if (!cleaner.offers('deleteObject')) return;
    await Promise.all(
      [...found.keys()].map((id) => {
        const pair = byId.get(id)!;
        return cleaner
          .send('deleteObject', {
            key: world.keys[pair.key] ?? keys.full,
            params: { collection_id: pair.collection.target, object_id: id },
          })
          .catch(() => undefined);
      }),
    );
  };
  const look = async () => {
    found.clear();
    await Promise.all(
      [...asked.values()].map(async ({ key, word }) => {
        const answer = await cleaner.send('search', { key, body: { query: word } });
        if (answer.status !== 200) return;
        for (const hit of cleaner.hitsOf(answer.json) ?? []) {
          const id = cleaner.hitObjectIdOf(hit);
          if (id !== undefined && ours.has(id)) found.set(id, word);
        }
      }),
    );
    if (found.size > 0) throw new NotYet('still found');
  };
  const settled = () =>
    new Settle(settleMs).until(look).catch((error: unknown) => {
      if (!(error instanceof CheckFailure || error instanceof NotYet)) throw error;
    });
  try {
    await settled();
    if (found.size > 0 && cleaner.offers('deleteObject')) {
      await remove();
      await settled();
    }
  } catch (error) {
    return [`(could not search for the sequence's objects: ${(error as Error).message})`];
  }
  return [...found].map(
    ([id, word]) =>
      `object ${id} (still found by a search for ${word} after its collection was deleted)`,
  );
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
  keys: Keys,
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
