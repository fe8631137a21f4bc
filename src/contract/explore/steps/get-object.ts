/** Gets an object with one key: its content and system fields against what was written. */
import type { ClauseId } from '../../../generated/clauses.ts';
import type { ObjectPair } from '../../expectations/state.ts';
import { allowed } from '../../expectations/updates.ts';
import { OPERATION_CLAUSE, requestClause } from '../../judges/clause-of.ts';
import { ok } from '../../judges/status.ts';
import { contentAsWritten, holdsContent, systemFields } from '../../judges/values.ts';
import type { StepRecord } from '../../judges/verdict.ts';
import type { BodyValues } from '../../target-api/target.ts';
import type { Sent } from '../comparison.ts';
import * as fc from '../fast-check.ts';
import { stepKind, type KeyName } from '../step-kind.ts';
import type { World } from '../world.ts';

export type GetObject = { kind: 'getObject'; ref: number; key: KeyName };

export const getObject = stepKind<GetObject>({
  kind: 'getObject',
  weight: 3,
  needs: ['getObject'],
  arbitrary: ({ ref, key }) => fc.record({ kind: fc.constant('getObject' as const), ref, key }),
  run: (world, step) => get(world, step.ref, step.key),
});

/**
 * Sends an operation on one of the run's objects to both sides, records it as `request`, and
 * judges its status: absent once the object or its collection is deleted, else as the
 * operation's clause says.
 */
export async function onObject(
  world: World,
  operation: 'getObject' | 'replaceObject' | 'updateObject' | 'deleteObject',
  pair: ObjectPair,
  key: KeyName,
  request: string,
  body?: () => BodyValues,
): Promise<[Sent, Sent, StepRecord]> {
  const [target, model] = await world.both(operation, key, {
    params: (side) => ({ collection_id: pair.collection[side], object_id: pair[side] }),
    ...(body ? { body } : {}),
  });
  const record = world.record(request, model, target);
  const clause: ClauseId = OPERATION_CLAUSE[operation];
  world.answered(
    requestClause(pair, key, operation !== 'getObject', clause),
    model,
    target,
    record,
    world.why(pair, key),
  );
  return [target, model, record];
}
export async function get(world: World, ref: number, key: KeyName): Promise<void> {
  const pair = world.expected.object(ref);
  if (!pair) return;
  const request = `get object #${world.expected.numberOf(pair)} (key ${key})`;
  const [target, model, record] = await onObject(world, 'getObject', pair, key, request);
  if (!ok(model.status)) return;
  const t = world.target.objectIn(target.json);
  world.judged(
    systemFields(
      world.target.missingSystemFields(t),
      pair.complete ? 'an earlier answer about it' : undefined,
    ),
    record,
  );
  pair.complete = true;
  const located = world.target.contentAt(t);
  world.judged(
    contentAsWritten(
      allowed(pair.content, world.target.description.updates.content),
      (content) => holdsContent(t, content, located),
      located?.content ?? t,
      world.modelName === 'the model' ? 'what was sent' : world.modelName,
    ),
    record,
  );
}
