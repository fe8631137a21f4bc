/** Deletes a collection (its owner's key, or another), then reads it and one of its objects back. */
import * as fc from '../fast-check.ts';
import { stepKind, type Writer } from '../step-kind.ts';
import { deleteCollection as remove } from '../collection-steps.ts';

export type DeleteCollection = { kind: 'deleteCollection'; ref: number; key: Writer };

export const deleteCollection = stepKind<DeleteCollection>({
  kind: 'deleteCollection',
  weight: 2,
  needs: ['deleteCollection'],
  arbitrary: ({ ref, writer }) =>
    fc.record({ kind: fc.constant('deleteCollection' as const), ref, key: writer }),
  run: async (world, step) => {
    const owner = world.expected.collection(step.ref)?.key;
    if (!owner) return;
    await remove(world, step.ref, step.key === 'owner' ? owner : step.key);
  },
});
