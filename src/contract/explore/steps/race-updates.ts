/** Updates of one collection's metadata sent at once: a get must then show one of them whole. */
import * as fc from '../fast-check.ts';
import { raceUpdates as race } from '../write-steps.ts';
import { stepKind } from '../step-kind.ts';

export type RaceUpdates = { kind: 'raceUpdates'; ref: number; count: number };

export const raceUpdates = stepKind<RaceUpdates>({
  kind: 'raceUpdates',
  weight: 1,
  needs: ['updateCollection'],
  arbitrary: ({ ref }) =>
    fc.record({
      kind: fc.constant('raceUpdates' as const),
      ref,
      count: fc.integer({ min: 2, max: 4 }),
    }),
  run: (world, step) => race(world, step.ref, step.count),
});
