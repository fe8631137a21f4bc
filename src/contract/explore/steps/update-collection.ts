/** Updates a collection's metadata (as the target's update style says), then reads it back. */
import * as fc from '../fast-check.ts';
import { updateCollection as update } from '../write-steps.ts';
import { metadata } from '../values.ts';
import { stepKind, type Writer } from '../step-kind.ts';

export type UpdateCollection = {
  kind: 'updateCollection';
  ref: number;
  key: Writer;
  metadata: Record<string, unknown>;
};

export const updateCollection = stepKind<UpdateCollection>({
  kind: 'updateCollection',
  weight: 2,
  needs: ['updateCollection'],
  arbitrary: ({ ref, writer }) =>
    fc.record({
      kind: fc.constant('updateCollection' as const),
      ref,
      key: writer,
      metadata,
    }),
  run: (world, step) => update(world, step.ref, step.key, step.metadata),
});
