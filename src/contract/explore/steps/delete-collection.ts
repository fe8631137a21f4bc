/** Deletes a collection (its owner's key, or another), then reads it and one of its objects back. */
import { AFTER } from '../../expectations/effects.ts';
import { refusedToDelete } from '../../judges/ownership.ts';
import { ok } from '../../judges/status.ts';
import type { KeyName } from '../step-kind.ts';
import { stepKind } from '../step-kind.ts';
import type { World } from '../world.ts';
import { get as getCollection } from './get-collection.ts';
import { get as getObject } from './get-object.ts';
import { ask as search } from './search.ts';

export const deleteCollection = stepKind({
  kind: 'deleteCollection',
  weight: 2,
  fields: ({ ref, writer }) => ({ ref, key: writer }),
  run: async (world, step) => {
    const owner = world.expected.collection(step.ref)?.key;
    if (!owner) return;
    await remove(world, step.ref, step.key === 'owner' ? owner : step.key);
  },
});

/** Deletes a collection; `readBack` gets it (and an object it held) at once, as a step does. */
export async function remove(
  world: World,
  ref: number,
  key: KeyName,
  readBack = true,
): Promise<void> {
  const pair = world.expected.collection(ref);
  if (!pair) return;
  const request = `delete collection #${world.expected.numberOf(pair)} (key ${key})`;
  // @note Every delete reads the collection back first, as the clean-up does: one shown with a
  // name the run never gave it is someone else's now, and is not deleted.
  const refused = await world.mayNotDelete(pair);
  if (refused !== undefined) {
    const record = { request, model: 'not sent', target: 'not sent' };
    world.records.push(record);
    world.judged(refusedToDelete(refused), record);
  }
  const [, model] = await world.on('deleteCollection', pair, key, request);
  if (!ok(model.status)) return;
  AFTER.deleteCollection(world.expected, { collection: pair, values: {} });
  // Gone on both sides: the clean-up has nothing to delete again.
  world.run.forget(pair.target);
  if (!readBack) return;
  // Read back at once: the collection is gone, and so is an object it held.
  // @note A get may show the delete a moment later (`consistency.cascade`).
  if (world.target.offers('getCollection'))
    await world.settled(() => getCollection(world, ref, pair.key), 'cascade');
  const held = world.expected.objects.findIndex((object) => object.collection === pair);
  if (held < 0) return;
  if (world.target.offers('getObject'))
    await world.settled(() => getObject(world, held, pair.key), 'cascade');
  if (!world.target.offers('search')) return;
  // And a search for its word finds none of the collection's objects (DEL-2).
  const word = world.expected.objects[held]!.word;
  await world.settled(() => search(world, word, null, pair.key), 'search');
}
