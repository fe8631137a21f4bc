/** Updates of one collection's metadata sent at once: a get must then show one of them whole. */
import { AFTER } from '../../expectations/effects.ts';
import { OPERATION_CLAUSE } from '../../judges/clause-of.ts';
import { ok } from '../../judges/status.ts';
import { oneUpdateWhole } from '../../judges/values.ts';
import * as fc from '../fast-check.ts';
import { stepKind } from '../step-kind.ts';
import type { World } from '../world.ts';
import { update as updateCollection } from './update-collection.ts';

export const raceUpdates = stepKind({
  kind: 'raceUpdates',
  weight: 1,
  needs: ['updateCollection'],
  fields: ({ ref }) => ({ ref, count: fc.integer({ min: 2, max: 4 }) }),
  run: (world, step) => race(world, step.ref, step.count),
});

/**
 * Several updates of one collection's metadata sent at once, each setting the same two keys to
 * its own number: whatever order the target took them in, a get must then show one update whole
 * (`a` and `b` from the same one), as some serial order would. The model races too; a last update
 * then sets both keys on both sides, so what each side holds is known again, as the update
 * style says.
 */
async function race(world: World, ref: number, count: number): Promise<void> {
  const pair = world.expected.collection(ref);
  if (!pair || pair.deleted) return;
  const key = pair.key;
  const n = world.expected.numberOf(pair);
  // @note In turns, a then b and b then a: a target that writes key by key mixes them then.
  const bodies = Array.from({ length: count }, (_, i) => ({
    metadata: i % 2 === 0 ? { a: i, b: i } : { b: i, a: i },
  }));
  const sent = await Promise.all(
    bodies.map((body) =>
      world.both('updateCollection', key, {
        params: (side) => ({ collection_id: pair[side] }),
        body: () => body,
      }),
    ),
  );
  const request = `update the metadata of collection #${n} ${count} times at once, each setting a and b to its own number (key ${key})`;
  const statuses = (side: 0 | 1) => sent.map((pair) => pair[side].status).join(', ');
  const record = { request, model: statuses(1), target: statuses(0) };
  world.records.push(record);
  for (const [target, model] of sent)
    world.answered(OPERATION_CLAUSE.updateCollection, model, target, record, world.why(pair, key));
  if (!sent.some(([, model]) => ok(model.status))) return;
  AFTER.updateCollection(world.expected, { collection: pair, values: bodies[0]! });
  if (world.target.offers('getCollection')) {
    const [target, model] = await world.both('getCollection', key, {
      params: (side) => ({ collection_id: pair[side] }),
    });
    const read = world.record(`get collection #${n} (key ${key})`, model, target);
    world.answered(OPERATION_CLAUSE.getCollection, model, target, read);
    if (ok(target.status)) {
      const shown = world.target.metadataOf(world.target.collectionIn(target.json)) as
        Record<string, unknown> | undefined;
      world.judged(
        oneUpdateWhole(
          bodies.map((body) => body.metadata),
          shown,
          `collection #${n}`,
        ),
        read,
      );
    }
  }
  // Known again on both sides: every update of the race set a and b, and this one sets them too.
  await updateCollection(world, ref, 'owner', { a: 'settled', b: 'settled' });
}
