/**
 * What a list or a search the consumer saw tells of the sequence's own data, judged on the
 * target: what the consumer saw must be there, what the sequence deleted or another account owns
 * must not. The target's other data, its order, ranking and paging are never compared.
 */
import type { CollectionPair, ObjectPair } from '../expectations/state.ts';
import { OPERATION_CLAUSE, visibleTo, type KeyName } from '../judges/clause-of.ts';
import { allShown, hitsListed, nothingHidden } from '../judges/reads.ts';
import type { StepRecord } from '../judges/verdict.ts';
import { onPartOfTheList } from '../judges/walks.ts';
import type { Sent } from '../explore/comparison.ts';
import type { World } from '../explore/world.ts';
import { judgeSummary } from '../explore/steps/get-collection.ts';

/** What a judge of a read needs of a sequence's replay: its world and the ids mapped so far. */
export interface Replaying {
  readonly world: World;
  readonly collections: ReadonlyMap<string, CollectionPair>;
  readonly objects: ReadonlyMap<string, ObjectPair>;
}

/** How a message names one of the sequence's resources: the target's id and the consumer's. */
const named = (pair: { target: string; model: string }) =>
  `${pair.target} (the consumer's ${pair.model})`;

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
  const { paging } = (objects && target.description.objectList) || target.description;
  const asked = paging.pageSize ? world.pageSize(WALK_PAGE_SIZE) : undefined;
  const walk = () =>
    target.walk({
      operation,
      key: key ?? undefined,
      ...(collection ? { params: { collection_id: collection.target } } : {}),
      ...(asked ? { pageSize: asked } : {}),
    });
  const walked = objects ? await walk() : await world.gate.walk(walk);
  const { items, pages, partial } = walked;
  world.requests += pages;
  const short = walked.reach.whole ? undefined : walked.reach.why;
  const idOf = (item: unknown) => (objects ? target.objectIdOf(item) : target.collectionIdOf(item));
  const shown = new Map(items.map((item) => [idOf(item), item]));
  const saw: Array<CollectionPair | ObjectPair> = [];
  for (const item of source.itemsOf(consumer.json) ?? []) {
    const recordedId = objects ? source.objectIdOf(item) : source.collectionIdOf(item);
    const pair = (objects ? replay.objects : replay.collections).get(recordedId ?? '');
    if (pair) saw.push(pair);
  }
  // @note A walk that may not have reached the end of the list cannot say what the list lacks
  // (what it lacks may be further on), nor that it holds nothing it must not: a rule about the
  // whole list is then not judged. What it did show is judged all the same.
  world.judged(
    onPartOfTheList(
      allShown(
        OPERATION_CLAUSE[operation],
        `the target's list (${items.length} items${partial ? `, ${partial}` : ''})`,
        saw.map(named),
        saw.filter((pair) => shown.has(pair.target)).map(named),
      ),
      short,
      'shows',
    ),
    record,
  );
  if (!objects)
    for (const pair of saw as CollectionPair[]) {
      const summary = shown.get(pair.target);
      if (summary === undefined) continue;
      const twin = (source.itemsOf(consumer.json) ?? []).find(
        (item) => source.collectionIdOf(item) === pair.model,
      );
      judgeSummary(world, pair, summary, twin, record, 'in the list: ');
    }
  const candidates: Array<CollectionPair | ObjectPair> = objects
    ? [...replay.objects.values()].filter((pair) => pair.collection === collection)
    : [...replay.collections.values()];
  world.judged(
    onPartOfTheList(
      nothingHidden(
        "the target's list",
        candidates.map((pair) => ({
          name: named(pair),
          state: pair,
          shown: shown.has(pair.target),
        })),
        (state) => visibleTo(state, keyName),
        keyName,
        OPERATION_CLAUSE[operation],
        'not the caller’s',
      ),
      short,
      'leavesOut',
    ),
    record,
  );
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
  world.judged(hitsListed(hits), record);
  const found = new Set(
    (hits ?? [])
      .map((hit) => target.hitObjectIdOf(hit))
      .filter((id): id is string => id !== undefined),
  );
  const limit = target.description.search.limit;
  const cut = limit !== undefined && (hits ?? []).length >= limit;
  const saw = (source.hitsOf(consumer.json) ?? [])
    .map((hit) => replay.objects.get(source.hitObjectIdOf(hit) ?? ''))
    .filter((pair): pair is ObjectPair => pair !== undefined);
  world.judged(
    allShown(
      OPERATION_CLAUSE.search,
      `the target's search (${(hits ?? []).length} hits)`,
      saw.map(named),
      saw.filter((pair) => found.has(pair.target)).map(named),
      cut ? 0 : saw.length,
    ),
    record,
  );
  world.judged(
    nothingHidden(
      "the target's search",
      [...replay.objects.values()].map((pair) => ({
        name: named(pair),
        state: pair,
        shown: found.has(pair.target),
      })),
      (state) => visibleTo(state, keyName),
      keyName,
      OPERATION_CLAUSE.search,
      'not the caller’s',
    ),
    record,
  );
}

/** The page size a walk of the list asks for, where the description names its parameter. */
const WALK_PAGE_SIZE = 100;
