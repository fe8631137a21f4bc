/**
 * What an exchange the consumer and the target both answered with success leaves, for the reads
 * after it (ids mapped, the expectations model changed as `AFTER` says), and what it shows of the
 * sequence's own data, judged against what the consumer saw: one entry for every operation.
 */
import type { CollectionPair, ObjectPair } from '../expectations/state.ts';
import { AFTER } from '../expectations/effects.ts';
import { allowed, created } from '../expectations/updates.ts';
import type { KeyName } from '../judges/clause-of.ts';
import {
  collectionCreated,
  contentAsWritten,
  holdsContent,
  metadataAsWritten,
  objectCreated,
  systemFields,
} from '../judges/values.ts';
import type { StepRecord } from '../judges/verdict.ts';
import type { Sent } from '../explore/comparison.ts';
import { judgeCollection } from '../explore/steps/get-collection.ts';
import type { OperationName } from '../target-api/description.ts';
import type { BodyValues } from '../target-api/target.ts';
import type { MatchedRequest } from './match.ts';
import { judgeList, judgeSearch, type Replaying } from './read-judges.ts';

/** A sequence's replay as the effects change it: the ids mapped so far. */
export interface ReplayState extends Replaying {
  readonly collections: Map<string, CollectionPair>;
  readonly objects: Map<string, ObjectPair>;
  readonly byTargetId: Map<string, ObjectPair>;
  readonly currentNames: Map<string, string>;
}

/** One exchange both sides answered with success. */
export interface Exchanged {
  request: MatchedRequest;
  values: BodyValues;
  consumer: Sent;
  answer: Sent;
  record: StepRecord;
  key: string | null;
  keyName: KeyName | null;
}

/** What an exchange names of the sequence's data, mapped. */
interface Named {
  collection: CollectionPair | undefined;
  object: ObjectPair | undefined;
}

/** Returns why nothing after it in the sequence can be judged, when nothing can. */
type Effect = (
  replay: ReplayState,
  exchanged: Exchanged,
  named: Named,
) => Promise<string | undefined | void> | string | undefined | void;

/** The metadata and count a collection's answer shows, against what the consumer saw. */
const summary: Effect = (replay, { consumer, answer, record }, { collection }) => {
  const { world } = replay;
  if (!collection || answer.json === undefined) return;
  judgeCollection(world, collection, answer, consumer, record);
};

/** What every operation's success leaves and shows (a new operation must say, or not compile). */
const EFFECTS: { readonly [O in OperationName]: Effect } = {
  createCollection: (replay, { consumer, answer, values, record, keyName }) => {
    const { world } = replay;
    const { target, model: source } = world;
    const shown = target.collectionIn(answer.json);
    const id = target.collectionIdOf(shown);
    world.judged(collectionCreated(id), record);
    const recordedId = source.collectionIdOf(source.collectionIn(consumer.json));
    if (recordedId === undefined) return 'after a create the consumer saw no id of';
    const metadata = source.metadataOf(source.collectionIn(consumer.json)) ?? values.metadata ?? {};
    const pair: CollectionPair = {
      target: id!,
      model: recordedId,
      key: keyName ?? 'full',
      deleted: false,
      metadata: created(metadata),
    };
    AFTER.createCollection(world.expected, { collection: pair, values });
    replay.collections.set(recordedId, pair);
    if (values.name !== undefined) replay.currentNames.set(pair.target, values.name);
    if (target.metadataOf(shown) !== undefined)
      world.judged(
        metadataAsWritten(
          'metadata',
          allowed(pair.metadata, target.description.updates.metadata),
          target.metadataOf(shown),
          world.modelName,
        ),
        record,
      );
  },
  getCollection: summary,
  updateCollection: (replay, exchanged, named) => {
    const { world } = replay;
    const { collection } = named;
    const { values } = exchanged;
    if (!collection) return;
    AFTER.updateCollection(world.expected, { collection, values });
    // @note Renamed: the clean-up reads it back by its new name.
    if (values.name !== undefined) {
      replay.currentNames.set(collection.target, values.name);
      world.run.track(
        collection.target,
        values.name,
        undefined,
        world.keys[collection.key] ?? world.keys.full,
      );
    }
    return summary(replay, exchanged, named);
  },
  deleteCollection: (replay, _, { collection }) => {
    if (!collection) return;
    AFTER.deleteCollection(replay.world.expected, { collection, values: {} });
    replay.world.run.forget(collection.target);
  },
  createObject: (replay, { consumer, answer, values, record, keyName }, { collection }) => {
    if (!collection) return;
    const { world } = replay;
    const { target, model: source } = world;
    const shown = target.objectIn(answer.json);
    const id = target.objectIdOf(shown);
    world.judged(objectCreated(id), record);
    const recordedId = source.objectIdOf(source.objectIn(consumer.json));
    if (recordedId === undefined) return 'after a create the consumer saw no id of';
    const pair: ObjectPair = {
      target: id!,
      model: recordedId,
      key: keyName ?? 'full',
      collection,
      word: 0,
      content: created(values.content),
      earlier: [],
      deleted: false,
      // @note Shown whole by the target's create answer: a get that lacks a system field then
      // loses it (OBJ-GET-1), as in explore; never shown, the service did not add it (OBJ-3).
      complete: target.missingSystemFields(shown).length === 0,
    };
    AFTER.createObject(world.expected, { object: pair, values });
    replay.objects.set(recordedId, pair);
    replay.byTargetId.set(pair.target, pair);
  },
  replaceObject: (replay, { values }, { object }) =>
    AFTER.replaceObject(replay.world.expected, { object, values }),
  updateObject: (replay, { values }, { object }) =>
    AFTER.updateObject(replay.world.expected, { object, values }),
  deleteObject: (replay, { values }, { object }) =>
    AFTER.deleteObject(replay.world.expected, { object, values }),
  getObject: (replay, { consumer, answer, record }, { object }) => {
    if (!object) return;
    const { world } = replay;
    const { target, model: source } = world;
    const shown = target.objectIn(answer.json);
    const located = target.contentAt(shown);
    world.judged(
      contentAsWritten(
        allowed(object.content, target.description.updates.content),
        (content) => holdsContent(shown, content, located),
        located?.content ?? shown,
        world.modelName,
      ),
      record,
    );
    // @note Judged where the consumer saw every system field: a recording made against another
    // description may name them otherwise.
    if (source.missingSystemFields(source.objectIn(consumer.json)).length === 0)
      world.judged(
        systemFields(
          target.missingSystemFields(shown),
          object.complete ? 'an earlier answer about it' : undefined,
        ),
        record,
      );
    object.complete = true;
  },
  listCollections: (replay, { consumer, key, keyName, record }, { collection }) =>
    judgeList(replay, 'listCollections', consumer, key, keyName, record, collection),
  listObjects: (replay, { consumer, key, keyName, record }, { collection }) =>
    judgeList(replay, 'listObjects', consumer, key, keyName, record, collection),
  search: (replay, { consumer, answer, keyName, record }) =>
    judgeSearch(replay, consumer, answer, keyName, record),
};

/**
 * Applies what the exchange did and judges what it shows; throws the divergence it shows.
 * Returns why nothing after it in the sequence can be judged, when nothing can.
 */
export async function judgeEffect(
  replay: ReplayState,
  exchanged: Exchanged,
): Promise<string | undefined> {
  const { params, operation } = exchanged.request;
  const broken = await EFFECTS[operation](replay, exchanged, {
    collection: replay.collections.get(params.collection_id ?? ''),
    object: replay.objects.get(params.object_id ?? ''),
  });
  return broken ?? undefined;
}
