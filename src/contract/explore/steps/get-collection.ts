/** Gets a collection with one key: its metadata and object count against the model's. */
import * as fc from '../fast-check.ts';
import { stepKind, type KeyName } from '../step-kind.ts';
import { getCollection as get } from '../collection-steps.ts';

export type GetCollection = { kind: 'getCollection'; ref: number; key: KeyName };

export const getCollection = stepKind<GetCollection>({
  kind: 'getCollection',
  weight: 3,
  needs: ['getCollection'],
  arbitrary: ({ ref, key }) => fc.record({ kind: fc.constant('getCollection' as const), ref, key }),
  run: (world, step) => get(world, step.ref, step.key),
});
