/**
 * What an exchange the consumer and the target both answered with success leaves, for the reads
 * after it (ids mapped, metadata and content by update style, what was deleted), and what a read
 * shows of the sequence's own data, judged against what the consumer saw.
 */
import {
  Divergence,
  holdsContent,
  short,
  type CollectionPair,
  type KeyName,
  type ObjectPair,
  type Sent,
  type StepRecord,
} from '../explore/comparison.ts';
import { created, sameMetadata, updated } from '../explore/updates.ts';
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

/**
 * Applies what the exchange did and judges what it shows; throws the {@link Divergence} it shows.
 * Returns why nothing after it in the sequence can be judged, when nothing can.
 */
export async function judgeEffect(
  replay: ReplayState,
  { request, values, consumer, answer, record, key, keyName }: Exchanged,
): Promise<string | undefined> {
  const { world } = replay;
  const { target, model: source } = world;
  const collection = replay.collections.get(request.params.collection_id ?? '');
  const object = replay.objects.get(request.params.object_id ?? '');
  const shownCollection = target.collectionIn(answer.json);
  switch (request.operation) {
    case 'createCollection': {
      const recordedId = source.collectionIdOf(source.collectionIn(consumer.json));
      const id = target.collectionIdOf(shownCollection);
      if (id === undefined)
        throw new Divergence('COLL-1', 'the target’s answer to a create shows no id', record);
      if (recordedId === undefined) return 'after a create the consumer saw no id of';
      const metadata =
        source.metadataOf(source.collectionIn(consumer.json)) ?? values.metadata ?? {};
      const pair: CollectionPair = {
        target: id,
        model: recordedId,
        key: keyName ?? 'full',
        deleted: false,
        metadata: created(metadata),
      };
      replay.collections.set(recordedId, pair);
      if (values.name !== undefined) replay.currentNames.set(id, values.name);
      if (target.metadataOf(shownCollection) !== undefined)
        sameMetadata(world, pair, target.metadataOf(shownCollection), record);
      return;
    }
    case 'getCollection':
    case 'updateCollection': {
      if (!collection) return;
      if (request.operation === 'updateCollection' && values.metadata !== undefined)
        collection.metadata = updated(collection.metadata, values.metadata);
      // @note Renamed: the clean-up reads it back by its new name.
      if (request.operation === 'updateCollection' && values.name !== undefined) {
        replay.currentNames.set(collection.target, values.name);
        world.run.track(
          collection.target,
          values.name,
          undefined,
          world.keys[collection.key] ?? world.keys.full,
        );
      }
      if (answer.json === undefined) return;
      sameMetadata(world, collection, target.metadataOf(shownCollection), record);
      const count = source.objectCountOf(source.collectionIn(consumer.json));
      if (count !== undefined)
        world.same(
          'COLL-2',
          'the object count',
          count,
          target.objectCountOf(shownCollection),
          record,
        );
      return;
    }
    case 'deleteCollection': {
      if (!collection) return;
      collection.deleted = true;
      for (const each of replay.objects.values())
        if (each.collection === collection) each.deleted = true;
      world.forget(collection.target);
      return;
    }
    case 'createObject':
    case 'replaceObject': {
      if (request.operation === 'replaceObject') {
        if (object) object.content = created(values.content);
        return;
      }
      if (!collection) return;
      const recordedId = source.objectIdOf(source.objectIn(consumer.json));
      const id = target.objectIdOf(target.objectIn(answer.json));
      if (id === undefined)
        throw new Divergence('OBJ-2', 'the target’s answer to a create shows no object id', record);
      if (recordedId === undefined) return 'after a create the consumer saw no id of';
      const pair: ObjectPair = {
        target: id,
        model: recordedId,
        key: keyName ?? 'full',
        collection,
        word: 0,
        content: created(values.content),
        earlier: [],
        deleted: false,
      };
      replay.objects.set(recordedId, pair);
      replay.byTargetId.set(id, pair);
      return;
    }
    case 'updateObject':
      if (object) object.content = updated(object.content, values.content);
      return;
    case 'deleteObject':
      if (object) object.deleted = true;
      return;
    case 'getObject': {
      if (!object) return;
      const shown = target.objectIn(answer.json);
      const declared = target.description.updates.content;
      const styles = declared ? [declared] : (['replace', 'merge', 'merge-patch'] as const);
      const expected = styles.map((style) => object.content[style]);
      if (expected[0] !== undefined && !expected.some((each) => holdsContent(shown, each, target)))
        throw new Divergence(
          'OBJ-GET-1',
          `its content: the consumer's writes left ${short(expected[0])}, the target shows ${short(target.contentAt(shown)?.content ?? shown)}`,
          record,
        );
      const lacking = target.missingSystemFields(shown);
      if (
        lacking.length > 0 &&
        source.missingSystemFields(source.objectIn(consumer.json)).length === 0
      )
        throw new Divergence(
          'OBJ-GET-1',
          `the target's object lacks ${lacking.join(', ')}`,
          record,
        );
      return;
    }
    case 'listCollections':
    case 'listObjects':
      await judgeList(replay, request.operation, consumer, key, keyName, record, collection);
      return;
    case 'search':
      judgeSearch(replay, consumer, answer, keyName, record);
      return;
    default:
      return;
  }
}
