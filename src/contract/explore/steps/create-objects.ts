/** Many objects in one collection at once: more than a page, or a batch, of them. */
import * as fc from '../fast-check.ts';
import { createObjects as create } from '../object-steps.ts';
import { stepKind } from '../step-kind.ts';

export type CreateObjects = { kind: 'createObjects'; ref: number; count: number; word: number };

export const createObjects = stepKind<CreateObjects>({
  kind: 'createObjects',
  weight: 1,
  needs: ['createObject'],
  arbitrary: ({ ref, word }) =>
    fc.record({
      kind: fc.constant('createObjects' as const),
      ref,
      count: fc.integer({ min: 2, max: 30 }),
      word,
    }),
  run: (world, step) => create(world, step.ref, step.count, step.word),
});
