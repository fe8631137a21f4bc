/** The steps of `explore` that create and read objects. */
import type { ClauseId } from '../../generated/clauses.ts';
import {
  keyClause,
  Divergence,
  holdsContent,
  ok,
  short,
  type CollectionPair,
  type ObjectPair,
  type Sent,
  type StepRecord,
} from './comparison.ts';
import type { BodyValues } from '../target-api/target.ts';
import { WORDS, type KeyName, type Writer } from './step-kind.ts';
import type { Explorer } from './explorer.ts';
import { created, matchingStyle } from './updates.ts';
import { search } from './read-steps.ts';

/**
 * Content with the sequence's word `word` planted at the start of its text (where no cut to a
 * limit reaches it), to search for, within the target's declared limits (the same content is
 * sent to both sides, and compared).
 */
export function plant(world: Explorer, content: unknown, word: number): object {
  const text = `${world.word(word)} ${(content as { text: string }).text}`;
  return world.fit({ content: { ...(content as object), text } }).content as object;
}

export async function createObject(
  world: Explorer,
  ref: number,
  writer: Writer,
  word: number,
  content: unknown,
): Promise<void> {
  const pair = world.collection(ref);
  if (!pair) return;
  const key = writer === 'owner' ? pair.key : writer;
  const planted = plant(world, content, word);
  const before = world.objects.length;
  await oneObject(
    world,
    pair,
    key,
    word,
    planted,
    `create an object in collection #${world.collections.indexOf(pair) + 1} (key ${key}, word ${word % WORDS})`,
  );
  // Read back at once: what was sent is what a get answers.
  if (world.objects.length > before && world.target.offers('getObject'))
    await getObject(world, before, key);
}

/**
 * Creates one object on both sides; `batch` records a batch's requests as one step (the
 * record is made by the caller, once every request of it is answered).
 */
async function oneObject(
  world: Explorer,

  pair: CollectionPair,
  key: KeyName,
  word: number,
  content: unknown,
  request: string,
  batch?: { statuses: Array<[number, number]> },
): Promise<void> {
  const [target, model] = await world.both('createObject', key, {
    params: (side) => ({ collection_id: pair[side] }),
    body: () => ({ content: content as object }),
  });
  let record: StepRecord;
  if (batch) {
    batch.statuses.push([model.status, target.status]);
    record = { request, model: String(model.status), target: String(target.status) };
  } else {
    record = world.record(request, model, target);
  }
  world.agree(
    keyClause(key, true, pair.deleted ? 'DEL-1' : 'OBJ-1'),
    model,
    target,
    record,
    world.why(pair, key),
  );
  if (!ok(model.status)) return;
  const t = world.target.objectIn(target.json);
  const targetId = world.target.objectIdOf(t);
  const modelId = world.model.objectIdOf(world.model.objectIn(model.json))!;
  if (!targetId) throw new Divergence('OBJ-2', 'the created object has no id', record);
  // @note One id for two objects of the run (an id handed out again after a delete) breaks
  // what an identifier is for: the old reference now fetches the new object.
  const holder = world.objects.findIndex((other) => other.target === targetId);
  if (holder >= 0)
    throw new Divergence(
      'OBJ-2',
      `the created object got id ${targetId}, the id of object #${holder + 1}${world.objects[holder]!.deleted ? ' (deleted before)' : ''}: one identifier for two objects`,
      record,
    );
  world.objects.push({
    target: targetId,
    model: modelId,
    key,
    collection: pair,
    word: word % WORDS,
    content: created(content),
    earlier: [],
    deleted: false,
    // @note Shown whole by the create's answer: a get that lacks a system field then breaks the
    // get (OBJ-GET-1), as after a get that showed them.
    complete: world.target.missingSystemFields(t).length === 0,
  });
}

export async function createObjects(
  world: Explorer,
  ref: number,
  count: number,
  word: number,
): Promise<void> {
  const pair = world.collection(ref);
  if (!pair) return;
  const key = pair.key;
  const request = `create ${count} objects at once in collection #${world.collections.indexOf(pair) + 1} (key ${key}, word ${word % WORDS})`;
  const batch = { statuses: [] as Array<[number, number]> };
  const tally = (side: 0 | 1) => {
    const counts = new Map<number, number>();
    for (const statuses of batch.statuses)
      counts.set(statuses[side], (counts.get(statuses[side]) ?? 0) + 1);
    return [...counts].map(([status, n]) => `${status} ×${n}`).join(', ');
  };
  // @note Sent at once: the end state must be that of some serial order (every object there).
  try {
    await Promise.all(
      Array.from({ length: count }, (_, i) =>
        oneObject(
          world,
          pair,
          key,
          // @note The last object of a batch holds the next word: a word few objects hold, at
          // the end of a collection that may now hold more than a page or a batch, to search for.
          i === count - 1 ? word + 1 : word,
          { text: `batch ${i} ${world.word(i === count - 1 ? word + 1 : word)}` },
          request,
          batch,
        ),
      ),
    );
  } finally {
    world.records.push({ request, model: tally(0), target: tally(1) });
    for (const [, status] of batch.statuses) world.coverage.count(world.coverage.statuses, status);
  }
  // Read back through a search scoped to the collection, for the word only the batch's last
  // object holds: the newest of a collection that may now hold more than a page or a batch.
  if (!pair.deleted && world.target.offers('search') && batch.statuses.some(([m]) => ok(m)))
    await world.settled(() => search(world, word + 1, ref, key, false));
}

/**
 * Sends an operation on one of the run's objects to both sides, records it as `request`, and
 * judges its status: absent once the object or its collection is deleted, else as `clause` says.
 */
export async function onObject(
  world: Explorer,
  operation: 'getObject' | 'replaceObject' | 'updateObject' | 'deleteObject',
  pair: ObjectPair,
  key: KeyName,
  request: string,
  clause: ClauseId,
  body?: () => BodyValues,
): Promise<[Sent, Sent, StepRecord]> {
  const [target, model] = await world.both(operation, key, {
    params: (side) => ({ collection_id: pair.collection[side], object_id: pair[side] }),
    ...(body ? { body } : {}),
  });
  const record = world.record(request, model, target);
  world.agree(
    keyClause(
      key,
      operation !== 'getObject',
      pair.collection.deleted ? 'DEL-2' : pair.deleted ? 'DEL-3' : clause,
    ),
    model,
    target,
    record,
    world.why(pair, key),
  );
  return [target, model, record];
}

export async function getObject(world: Explorer, ref: number, key: KeyName): Promise<void> {
  const list = world.objects;
  if (list.length === 0) return;
  const pair = list[ref % list.length]!;
  const request = `get object #${list.indexOf(pair) + 1} (key ${key})`;
  const [target, model, record] = await onObject(
    world,
    'getObject',
    pair,
    key,
    request,
    'OBJ-GET-1',
  );
  if (!ok(model.status)) return;
  const t = world.target.objectIn(target.json);
  const missing = world.target.missingSystemFields(t);
  world.coverage.count(world.coverage.clauses, 'OBJ-3');
  // @note Never shown, the service did not add them (OBJ-3); shown by the create's answer or an
  // earlier get and lacking now, a get no longer returns the object's complete data (OBJ-GET-1).
  if (missing.length > 0)
    throw new Divergence(
      pair.complete ? 'OBJ-GET-1' : 'OBJ-3',
      `the object lacks ${missing.join(', ')}${pair.complete ? ', which an earlier answer about it showed' : ''}`,
      record,
    );
  pair.complete = true;
  world.coverage.count(world.coverage.clauses, 'OBJ-GET-1');
  const declared = world.target.description.updates.content;
  const style = matchingStyle(pair.content, declared, t, (expected, shown) =>
    holdsContent(shown, expected, world.target),
  );
  if (style === undefined) {
    const expected = pair.content[declared ?? 'replace'];
    throw new Divergence(
      'OBJ-GET-1',
      `the content sent (${short(expected)}) is not what came back`,
      record,
    );
  }
}
