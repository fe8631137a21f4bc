/** A walk of a collection's objects (our document's `listObjects`). */
import * as fc from '../fast-check.ts';
import { listObjects as list } from '../object-list-steps.ts';
import { stepKind, type KeyName } from '../step-kind.ts';

export type ListObjects = { kind: 'listObjects'; ref: number; key: KeyName; pageSize: number };

export const listObjects = stepKind<ListObjects>({
  kind: 'listObjects',
  weight: 2,
  needs: ['listObjects'],
  arbitrary: ({ ref, key, pageSize }) =>
    fc.record({ kind: fc.constant('listObjects' as const), ref, key, pageSize }),
  run: (world, step) => world.settled(() => list(world, step.ref, step.key, step.pageSize)),
});
