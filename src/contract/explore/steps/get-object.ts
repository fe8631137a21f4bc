/** Gets an object with one key: its content and system fields against what was written. */
import * as fc from '../fast-check.ts';
import { getObject as get } from '../object-steps.ts';
import { stepKind, type KeyName } from '../step-kind.ts';

export type GetObject = { kind: 'getObject'; ref: number; key: KeyName };

export const getObject = stepKind<GetObject>({
  kind: 'getObject',
  weight: 3,
  needs: ['getObject'],
  arbitrary: ({ ref, key }) => fc.record({ kind: fc.constant('getObject' as const), ref, key }),
  run: (world, step) => get(world, step.ref, step.key),
});
