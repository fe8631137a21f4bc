/**
 * What a list or a search the consumer saw tells of the sequence's own data, judged on the
 * target: what the consumer saw must be there, what the sequence deleted or another account owns
 * must not. The target's other data, its order, ranking and paging are never compared.
 */
import type { ClauseId } from '../../generated/clauses.ts';
import {
  Divergence,
  type CollectionPair,
  type KeyName,
  type Pair,
  type Sent,
  type StepRecord,
} from '../explore/comparison.ts';
import { sameMetadata } from '../explore/updates.ts';
import type { Gate } from '../explore/gate.ts';
import type { ObjectPair } from '../explore/comparison.ts';
import type { World } from '../explore/world.ts';

/** What a judge of a read needs of a sequence's replay: its world and the ids mapped so far. */
export interface Replaying {
  readonly world: World;
  readonly collections: ReadonlyMap<string, CollectionPair>;
  readonly objects: ReadonlyMap<string, ObjectPair>;
  readonly gate: Gate | undefined;
}

const account = (key: KeyName) => (key === 'otherAccount' ? 'other' : 'own');

/** Fails with `clause` when the target shows `pair`, which it must not. */
function mustNotShow(
  shown: ReadonlySet<string>,
  pair: Pair,
  clause: ClauseId,
  what: string,
  record: StepRecord,
): void {
  if (shown.has(pair.target))
    throw new Divergence(
      clause,
      `the target shows ${pair.target} (the consumer's ${pair.model}), ${what}`,
      record,
    );
}

/**
 * A list the consumer read: the target's whole list (walked with the same key, as its
 * description pages it) shows each of the sequence's collections or objects the consumer saw on
 * its page, with the same metadata and count, and none the sequence deleted or another account
 * owns.
 */
export async function judgeList(
  replay: Replaying,
  operation: 'listCollections' | 'listObjects',
  consumer: Sent,
  key: string | null,
  keyName: KeyName | null,
  record: StepRecord,
  collection: CollectionPair | undefined,
): Promise<void> {
  const { world } = replay;
  const { target, model: source } = world;
  const objects = operation === 'listObjects';
  const walk = () =>
    target.walk({
      operation,
      key: key ?? undefined,
      ...(collection ? { params: { collection_id: collection.target } } : {}),
    });
  const { items, pages, partial } =
    replay.gate && !objects ? await replay.gate.walk(walk) : await walk();
  world.requests += pages;
  const idOf = (item: unknown) => (objects ? target.objectIdOf(item) : target.collectionIdOf(item));
  const shown = new Map(items.map((item) => [idOf(item), item]));
  const ids = new Set([...shown.keys()].filter((id): id is string => id !== undefined));
  const clause: ClauseId = objects ? 'OBJ-1' : 'COLL-LIST-1';
  for (const item of source.itemsOf(consumer.json) ?? []) {
    const recordedId = objects ? source.objectIdOf(item) : source.collectionIdOf(item);
    const pair = objects
      ? replay.objects.get(recordedId ?? '')
      : replay.collections.get(recordedId ?? '');
    if (!pair) continue;
    if (!ids.has(pair.target)) {
      if (partial) continue;
      throw new Divergence(
        clause,
        `the consumer saw ${recordedId} listed; the target's list (${items.length} items) lacks it (${pair.target})`,
        record,
      );
    }
    if (objects) continue;
    const summary = shown.get(pair.target);
    sameMetadata(
      world,
      pair as CollectionPair,
      target.metadataOf(summary),
      record,
      'metadata in the list',
    );
    const count = source.objectCountOf(item);
    if (count !== undefined)
      world.same(
        'COLL-2',
        'the object count in the list',
        count,
        target.objectCountOf(summary),
        record,
      );
  }
  const pairs: Array<Pair & { deleted: boolean }> = objects
    ? [...replay.objects.values()].filter((pair) => pair.collection === collection)
    : [...replay.collections.values()];
  for (const pair of pairs) {
    if (pair.deleted)
      mustNotShow(ids, pair, objects ? 'OBJ-2' : 'DEL-1', 'which the sequence deleted', record);
    else if (!objects && keyName && account(pair.key) !== account(keyName))
      mustNotShow(ids, pair, 'ISO-1', "another account's", record);
  }
}

/**
 * A search the consumer ran: every object of the sequence's the consumer found, the target finds
 * too (unless its answer is as long as its declared result limit, where others' data may come
 * first); it finds none the sequence deleted, and none of another account's.
 */
export function judgeSearch(
  replay: Replaying,
  consumer: Sent,
  answer: Sent,
  keyName: KeyName | null,
  record: StepRecord,
): void {
  const { world } = replay;
  const { target, model: source } = world;
  const hits = target.hitsOf(answer.json);
  if (hits === undefined)
    throw new Divergence('SEARCH-1', 'the target’s answer shows no list of hits', record);
  const found = new Set(
    hits.map((hit) => target.hitObjectIdOf(hit)).filter((id): id is string => id !== undefined),
  );
  const limit = target.description.search.limit;
  const cut = limit !== undefined && hits.length >= limit;
  for (const hit of source.hitsOf(consumer.json) ?? []) {
    const pair = replay.objects.get(source.hitObjectIdOf(hit) ?? '');
    if (pair && !found.has(pair.target) && !cut)
      throw new Divergence(
        'SEARCH-1',
        `the consumer's search found ${pair.model}; the target's (${hits.length} hits) lacks it (${pair.target})`,
        record,
      );
  }
  for (const pair of replay.objects.values()) {
    if (pair.deleted || pair.collection.deleted)
      mustNotShow(
        found,
        pair,
        pair.collection.deleted ? 'DEL-2' : 'OBJ-2',
        'which the sequence deleted',
        record,
      );
    else if (keyName && account(pair.key) !== account(keyName))
      mustNotShow(found, pair, 'ISO-1', "another account's", record);
  }
}
