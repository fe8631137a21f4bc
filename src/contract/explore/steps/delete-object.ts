/** Deletes an object (its owner's key, or another). */
import * as fc from '../fast-check.ts';
import { deleteObject as remove } from '../write-steps.ts';
import { stepKind, type Writer } from '../step-kind.ts';

export type DeleteObject = { kind: 'deleteObject'; ref: number; key: Writer };

export const deleteObject = stepKind<DeleteObject>({
  kind: 'deleteObject',
  weight: 2,
  needs: ['deleteObject'],
  arbitrary: ({ ref, writer }) =>
    fc.record({ kind: fc.constant('deleteObject' as const), ref, key: writer }),
  run: (world, step) => remove(world, step.ref, step.key),
});
