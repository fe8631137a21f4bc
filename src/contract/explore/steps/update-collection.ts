/**
 * Updates a collection's metadata (as the target's update style says) and renames it where both
 * sides take a name in an update (each part sent, where the description takes it in parts), then
 * reads it back.
 */
import { AFTER } from '../../expectations/effects.ts';
import { ok } from '../../judges/status.ts';
import { stepKind, type Writer } from '../step-kind.ts';
import { metadata } from '../values.ts';
import type { World } from '../world.ts';
import { get as getCollection } from './get-collection.ts';

export const updateCollection = stepKind({
  kind: 'updateCollection',
  weight: 2,
  fields: ({ ref, writer }) => ({ ref, key: writer, metadata }),
  run: (world, step) => update(world, step.ref, step.key, step.metadata),
});

export async function update(
  world: World,
  ref: number,
  writer: Writer,
  metadata: Record<string, unknown>,
): Promise<void> {
  const pair = world.expected.collection(ref);
  if (!pair) return;
  const key = writer === 'owner' ? pair.key : writer;
  // @note A fresh name of the run's shape, so that the look-back and `sweep` still know it.
  const renames =
    world.target.carries('updateCollection', '{name}') &&
    world.model.carries('updateCollection', '{name}');
  const name = renames ? world.collectionName(`r${world.nextRename()}`) : undefined;
  const body = world.fit({ metadata, ...(name === undefined ? {} : { name }) });
  const request = `update the metadata of collection #${world.expected.numberOf(pair)}${name === undefined ? '' : ` and rename it ${name}`} (key ${key})`;
  // @note Known by its new name too before the answer: a part may take it and another refuse.
  if (name !== undefined) world.run.renaming(pair.target, name);
  const [, model] = await world.on('updateCollection', pair, key, request, () => body);
  if (!ok(model.status)) return;
  AFTER.updateCollection(world.expected, { collection: pair, values: body });
  // Read back at once: the metadata set, and the count as it was.
  if (world.target.offers('getCollection')) await getCollection(world, ref, pair.key);
}
