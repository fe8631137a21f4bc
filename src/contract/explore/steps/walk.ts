/** A walk of the whole list of collections: each once, in order, with their summaries. */
import * as fc from '../fast-check.ts';
import { walk as walkList } from '../read-steps.ts';
import { stepKind, type KeyName } from '../step-kind.ts';

export type Walk = { kind: 'walk'; pageSize: number; key: KeyName };

export const walk = stepKind<Walk>({
  kind: 'walk',
  weight: 2,
  needs: ['listCollections'],
  walks: true,
  arbitrary: ({ pageSize, key }) =>
    fc.record({ kind: fc.constant('walk' as const), pageSize, key }),
  run: (world, step) =>
    world.settled(() => walkList(world, world.pageSize(step.pageSize), step.key)),
});
