/** A walk with writes between its pages: a new collection (`ref` null) or a delete. */
import * as fc from '../fast-check.ts';
import { walkWhileWriting as walk } from '../walk-steps.ts';
import { stepKind, type KeyName } from '../step-kind.ts';

export type WalkWhileWriting = {
  kind: 'walkWhileWriting';
  pageSize: number;
  key: KeyName;
  writes: Array<number | null>;
};

export const walkWhileWriting = stepKind<WalkWhileWriting>({
  kind: 'walkWhileWriting',
  weight: 2,
  needs: ['listCollections', 'createCollection', 'deleteCollection'],
  walks: true,
  arbitrary: ({ pageSize, key, ref }) =>
    fc.record({
      kind: fc.constant('walkWhileWriting' as const),
      pageSize,
      key,
      writes: fc.array(fc.option(ref, { nil: null }), { minLength: 1, maxLength: 3 }),
    }),
  run: (world, step) => walk(world, world.pageSize(step.pageSize), step.key, step.writes),
});
