/**
 * Creates a collection with the name of one the sequence deleted, then gets it: a new, empty
 * collection (§3: a delete removes a collection and its objects permanently, and cannot be
 * undone), never the deleted one brought back with its objects or its count.
 */
import { stepKind } from '../step-kind.ts';
import { create } from './create-collection.ts';
import { get } from './get-collection.ts';

export const recreateCollection = stepKind({
  kind: 'recreateCollection',
  weight: 2,
  needs: ['createCollection', 'deleteCollection', 'getCollection'],
  fields: ({ ref }) => ({ ref }),
  run: async (world, step) => {
    // @note Never a name a live collection holds: whether two may share one is open (the model
    // refuses it, 409), and not what this step asks.
    const live = new Set(world.expected.collections.filter((c) => !c.deleted).map((c) => c.name));
    const deleted = world.expected.collections.filter(
      (c) => c.deleted && c.name !== undefined && !live.has(c.name),
    );
    const pair = deleted[step.ref % Math.max(1, deleted.length)];
    if (!pair) return;
    const made = await create(world, pair.key, {}, pair.name);
    if (made !== undefined) await get(world, made, pair.key);
  },
});
