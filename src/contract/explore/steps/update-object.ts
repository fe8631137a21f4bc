/** A partial update of an object's content (our document's PATCH): keys set, `null` ones removed. */
import * as fc from '../fast-check.ts';
import { updateObject as update } from '../write-steps.ts';
import { patch } from '../values.ts';
import { stepKind, type Writer } from '../step-kind.ts';

export type UpdateObject = {
  kind: 'updateObject';
  ref: number;
  key: Writer;
  word: number;
  patch: Record<string, unknown>;
};

export const updateObject = stepKind<UpdateObject>({
  kind: 'updateObject',
  weight: 2,
  needs: ['updateObject'],
  arbitrary: ({ ref, writer, word }) =>
    fc.record({
      kind: fc.constant('updateObject' as const),
      ref,
      key: writer,
      word,
      patch,
    }),
  run: (world, step) => update(world, step.ref, step.key, step.word, step.patch),
});
