/** A walk of a collection's objects (our document's `listObjects`). */
import { CheckFailure } from '../../failure.ts';
import { OPERATION_CLAUSE, requestClause, shownClause, visibleTo } from '../../judges/clause-of.ts';
import { short } from '../../judges/json.ts';
import { nothingHidden, sameItems } from '../../judges/reads.ts';
import { ok } from '../../judges/status.ts';
import type { StepRecord } from '../../judges/verdict.ts';
import { listBroken } from '../../judges/walks.ts';
import { stepKind, type KeyName } from '../step-kind.ts';
import type { World } from '../world.ts';

export const listObjects = stepKind({
  kind: 'listObjects',
  weight: 2,
  fields: ({ ref, key, pageSize }) => ({ ref, key, pageSize }),
  run: (world, step) => world.settled(() => list(world, step.ref, step.key, step.pageSize)),
});

export async function list(
  world: World,
  ref: number,
  key: KeyName,
  pageSize: number,
): Promise<void> {
  const { expected } = world;
  const pair = expected.collection(ref);
  if (!pair) return;
  const n = expected.numberOf(pair);
  const why = world.why(pair, key);
  const size = Math.min(pageSize, world.target.description.limits.pageSize ?? pageSize);
  // @note What the model refuses (gone, not yours, a refused key) is judged by its status alone.
  if (!visibleTo(pair, key) || key === 'inactive') {
    const [target, model] = await world.both('listObjects', key, {
      params: (side) => ({ collection_id: pair[side] }),
    });
    const record = world.record(`list the objects of collection #${n} (key ${key})`, model, target);
    world.answered(
      requestClause(pair, key, false, shownClause(pair, key, OPERATION_CLAUSE.listObjects)),
      model,
      target,
      record,
      why,
    );
    if (ok(model.status) || !ok(target.status)) return;
  }
  world.coverage.count(world.coverage.operations, 'listObjects');
  const request = `list the objects of collection #${n}, pages of ${size} (key ${key})`;
  const record: StepRecord = { request, model: '', target: '' };
  world.records.push(record);
  const walk = (side: 'target' | 'model') =>
    world[side].walk({
      operation: 'listObjects',
      params: { collection_id: pair[side] },
      key: (side === 'target' ? world.keys : world.modelKeys)[key],
      pageSize: size,
    });
  const [target, model] = await Promise.all([
    walk('target').catch((error: unknown) => {
      if (!(error instanceof CheckFailure) || error.clause !== undefined) throw error;
      record.target = error.message;
      world.judged(listBroken(error.message), record);
      throw error;
    }),
    walk('model'),
  ]);
  const numbers = (side: 'target' | 'model', items: unknown[]) => {
    const index = new Map(expected.objects.map((object, i) => [object[side], i + 1]));
    return items
      .map((item) => index.get(world[side].objectIdOf(item) ?? '') ?? 0)
      .sort((a, b) => a - b);
  };
  const wanted = numbers('model', model.items);
  const seen = numbers('target', target.items);
  record.model = `objects ${short(wanted.map((i) => (i ? `#${i}` : 'not the run’s')))}`;
  record.target = `objects ${short(seen.map((i) => (i ? `#${i}` : 'not the run’s')))}${target.partial ? ` (${target.partial})` : ''}`;
  // @note Another collection's objects, deleted ones or another account's: none belongs here.
  world.judged(
    nothingHidden(
      `the objects of collection #${n}`,
      expected.objects.map((object, i) => ({
        name: `#${i + 1}`,
        state: object,
        shown: seen.includes(i + 1),
      })),
      (state) => visibleTo(state, key) && 'collection' in state && state.collection === pair,
      key,
      OPERATION_CLAUSE.listObjects,
      'in another collection',
    ),
    record,
  );
  const named = (list: number[]) => list.map((i) => (i ? `#${i}` : 'not the run’s'));
  world.judged(
    sameItems(target.reach, `the objects of collection #${n}`, named(wanted), named(seen)),
    record,
  );
}
