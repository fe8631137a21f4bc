/** Deletes an object (its owner's key, or another). */
import { AFTER } from '../../expectations/effects.ts';
import { ok } from '../../judges/status.ts';
import type { OperationName } from '../../target-api/description.ts';
import { stepKind, type Writer } from '../step-kind.ts';
import type { World } from '../world.ts';
import { get as getCollection } from './get-collection.ts';
import { get as getObject } from './get-object.ts';
import { list as listObjects } from './list-objects.ts';
import { ask as search } from './search.ts';

export const deleteObject = stepKind({
  kind: 'deleteObject',
  weight: 2,
  fields: ({ ref, writer }) => ({ ref, key: writer }),
  run: (world, step) => remove(world, step.ref, step.key),
});

async function remove(world: World, ref: number, writer: Writer): Promise<void> {
  const { expected } = world;
  const pair = expected.object(ref);
  if (!pair) return;
  const key = writer === 'owner' ? pair.key : writer;
  const request = `delete object #${expected.numberOf(pair)} (key ${key})`;
  const [, model] = await world.on('deleteObject', pair, key, request);
  if (!ok(model.status)) return;
  AFTER.deleteObject(expected, { object: pair, values: {} });
  // Read back at once through every operation that could show it: the collection counts one
  // object less, a get finds it gone, a search no longer finds it, nor the collection's list.
  const owner = pair.collection.key;
  const offers = (operation: OperationName) => world.target.offers(operation);
  const collection = expected.collections.indexOf(pair.collection);
  if (offers('getCollection')) await getCollection(world, collection, owner);
  if (offers('getObject')) await getObject(world, expected.objects.indexOf(pair), owner);
  if (offers('search')) await world.settled(() => search(world, pair.word, null, owner), 'search');
  if (offers('listObjects')) await listObjects(world, collection, owner, 5);
}
