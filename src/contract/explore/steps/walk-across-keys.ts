/** A walk whose later pages are asked for with another key than the first. */
import * as fc from '../fast-check.ts';
import { walkAcrossKeys as walk } from '../walk-steps.ts';
import { stepKind, type KeyName } from '../step-kind.ts';

export type WalkAcrossKeys = {
  kind: 'walkAcrossKeys';
  pageSize: number;
  first: KeyName;
  then: KeyName;
};

export const walkAcrossKeys = stepKind<WalkAcrossKeys>({
  kind: 'walkAcrossKeys',
  // @note Drawn only when there is another key to carry on with.
  weight: ({ keys }) => (keys.length > 1 ? 2 : 0),
  needs: ['listCollections'],
  walks: true,
  arbitrary: ({ pageSize, key }) =>
    fc.record({
      kind: fc.constant('walkAcrossKeys' as const),
      pageSize,
      first: key,
      then: key,
    }),
  run: (world, step) => walk(world, world.pageSize(step.pageSize), step.first, step.then),
});
