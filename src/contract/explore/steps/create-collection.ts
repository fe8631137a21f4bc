/** Creates a collection, with metadata, with one key (compared; an answer naming another collection ends the sequence). */
import * as fc from '../fast-check.ts';
import { metadata } from '../values.ts';
import { stepKind, type KeyName } from '../step-kind.ts';
import { createCollection as create } from '../collection-steps.ts';

export type CreateCollection = {
  kind: 'createCollection';
  key: KeyName;
  metadata: Record<string, unknown>;
};

export const createCollection = stepKind<CreateCollection>({
  kind: 'createCollection',
  weight: 4,
  needs: ['createCollection'],
  arbitrary: ({ key }) =>
    fc.record({ kind: fc.constant('createCollection' as const), key, metadata }),
  run: (world, step) => create(world, step.key, step.metadata),
});
