/** Several collections, one after another: lists of more than a page. */
import { create } from './create-collection.ts';
import * as fc from '../fast-check.ts';
import { stepKind } from '../step-kind.ts';

export const createCollections = stepKind({
  kind: 'createCollections',
  weight: 1,
  needs: ['createCollection'],
  fields: ({ key }) => ({ key, count: fc.integer({ min: 2, max: 6 }) }),
  run: async (world, step) => {
    // @note One after another: the order of creation is the order a list shows.
    for (let i = 0; i < step.count; i++) await create(world, step.key, {});
  },
});
