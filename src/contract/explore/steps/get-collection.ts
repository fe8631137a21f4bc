/** Gets a collection with one key: its metadata and object count against the model's. */
import type { CollectionPair } from '../../expectations/state.ts';
import { allowed } from '../../expectations/updates.ts';
import { ok } from '../../judges/status.ts';
import { metadataAsWritten, nameAsGiven, objectCount } from '../../judges/values.ts';
import type { StepRecord } from '../../judges/verdict.ts';
import type { Sent } from '../comparison.ts';
import { stepKind, type KeyName } from '../step-kind.ts';
import type { World } from '../world.ts';

export const getCollection = stepKind({
  kind: 'getCollection',
  weight: 3,
  fields: ({ ref, key }) => ({ ref, key }),
  // @note A get after a delete may show it a moment later (`consistency.cascade`).
  run: (world, step) => world.settled(() => get(world, step.ref, step.key), 'cascade'),
});

export async function get(world: World, ref: number, key: KeyName): Promise<void> {
  const pair = world.expected.collection(ref);
  if (!pair) return;
  const request = `get collection #${world.expected.numberOf(pair)} (key ${key})`;
  const [target, model, record] = await world.on('getCollection', pair, key, request);
  if (!ok(model.status)) return;
  judgeCollection(world, pair, target, model, record);
}

/** The metadata and object count an answer about one collection shows, against the other side's. */
export function judgeCollection(
  world: World,
  pair: CollectionPair,
  target: Sent,
  model: Sent,
  record: StepRecord,
): void {
  const shown = world.target.collectionIn(target.json);
  judgeSummary(world, pair, shown, world.model.collectionIn(model.json), record);
}

/** The metadata and object count a collection shows, where it shows them, judged. */
export function judgeSummary(
  world: World,
  pair: CollectionPair,
  shown: unknown,
  twin: unknown,
  record: StepRecord,
  where = '',
): void {
  // @note Where the description says where a name is and the run gave this one a name.
  if (pair.name !== undefined && world.target.description.collection.name !== undefined)
    world.judged(nameAsGiven(`${where}the name`, pair.name, world.target.nameOf(shown)), record);
  world.judged(
    metadataAsWritten(
      `${where}the metadata`,
      allowed(pair.metadata, world.target.description.updates.metadata),
      world.target.metadataOf(shown),
      world.modelName,
    ),
    record,
  );
  // @note Where the answer compared with shows no count (a recording made against another
  // description), there is nothing to judge the target's by.
  const count = world.model.objectCountOf(twin);
  if (count !== undefined)
    world.judged(
      objectCount(
        `${where}the object count`,
        count,
        world.target.objectCountOf(shown),
        world.modelName,
      ),
      record,
    );
}
