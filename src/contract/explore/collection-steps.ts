/** The steps of `explore` on collections: create, get (compared), delete (read back). */
import { Divergence, keyClause, ok } from './comparison.ts';
import { created, sameMetadata } from './updates.ts';
import type { Explorer } from './explorer.ts';
import { getObject } from './object-steps.ts';
import { search } from './read-steps.ts';
import type { KeyName } from './step-kind.ts';

export async function createCollection(
  world: Explorer,
  key: KeyName,
  metadata: Record<string, unknown>,
): Promise<void> {
  const name = world.collectionName(String(world.nextName()));
  const body = world.fit({ name, metadata });
  const [target, model] = await world.both('createCollection', key, { body: () => body });
  const answer = world.target.collectionIn(target.json);
  const targetId = ok(target.status) ? world.target.collectionIdOf(answer) : undefined;
  // @note Ownership is decided once (`RunData.claim`): a create that answers a collection listed
  // before the run, or one named otherwise (a get-or-create, a cache), hands the sequence
  // someone else's data: it ends here, before any step could write to it or delete it.
  const refused =
    targetId === undefined ? undefined : await world.claim(targetId, answer, name, key);
  const record = world.record(`create collection ${name} (key ${key})`, model, target);
  world.agree(keyClause(key, true, 'COLL-1'), model, target, record);
  if (refused !== undefined)
    throw new Divergence('COLL-1', `the create answered ${refused}`, record);
  if (!ok(model.status)) return;
  const modelId = world.model.collectionIdOf(world.model.collectionIn(model.json))!;
  if (!targetId) throw new Divergence('COLL-1', 'the created collection has no id', record);
  world.collections.push({
    target: targetId,
    model: modelId,
    key,
    deleted: false,
    metadata: created(body.metadata),
  });
}
export async function getCollection(world: Explorer, ref: number, key: KeyName): Promise<void> {
  const pair = world.collection(ref);
  if (!pair) return;
  const [target, model] = await world.both('getCollection', key, {
    params: (side) => ({ collection_id: pair[side] }),
  });
  const record = world.record(
    `get collection #${world.collections.indexOf(pair) + 1} (key ${key})`,
    model,
    target,
  );
  world.agree(pair.deleted ? 'DEL-1' : 'COLL-GET-1', model, target, record, world.why(pair, key));
  if (!ok(model.status)) return;
  const t = world.target.collectionIn(target.json);
  const m = world.model.collectionIn(model.json);
  sameMetadata(world, pair, world.target.metadataOf(t), record);
  world.same(
    'COLL-2',
    'object count',
    world.model.objectCountOf(m),
    world.target.objectCountOf(t),
    record,
  );
}
/** Deletes a collection; `readBack` gets it (and an object it held) at once, as a step does. */
export async function deleteCollection(
  world: Explorer,
  ref: number,
  key: KeyName,
  readBack = true,
): Promise<void> {
  const pair = world.collection(ref);
  if (!pair) return;
  // @note Every delete reads the collection back first, as the clean-up does: one shown with a
  // name the run never gave it is someone else's now, and is not deleted.
  const refused = await world.mayNotDelete(pair);
  if (refused !== undefined) {
    const record = {
      request: `delete collection #${world.collections.indexOf(pair) + 1} (key ${key})`,
      model: 'not sent',
      target: 'not sent',
    };
    world.records.push(record);
    throw new Divergence('COLL-1', refused, record);
  }
  const [target, model] = await world.both('deleteCollection', key, {
    params: (side) => ({ collection_id: pair[side] }),
  });
  const record = world.record(
    `delete collection #${world.collections.indexOf(pair) + 1} (key ${key})`,
    model,
    target,
  );
  world.agree(keyClause(key, true, 'DEL-1'), model, target, record, world.why(pair, key));
  if (!ok(model.status)) return;
  pair.deleted = true;
  // Gone on both sides: the clean-up has nothing to delete again.
  world.forget(pair.target);
  if (!readBack) return;
  // Read back at once: the collection is gone, and so is an object it held.
  if (world.target.offers('getCollection')) await world.getCollection(ref, pair.key);
  const held = world.objects.findIndex((object) => object.collection === pair);
  if (held < 0) return;
  if (world.target.offers('getObject')) await getObject(world, held, pair.key);
  if (!world.target.offers('search')) return;
  // And a search for its word finds none of the collection's objects (DEL-2).
  const word = world.objects[held]!.word;
  await world.settled(() => search(world, word, null, pair.key));
}
