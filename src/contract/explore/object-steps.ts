/** The steps of `explore` that create and read objects. */
import type { ClauseId } from '../../generated/clauses.ts';
import { AFTER } from '../expectations/effects.ts';
import { allowed, created } from '../expectations/updates.ts';
import type { CollectionPair, ObjectPair } from '../expectations/state.ts';
import { OPERATION_CLAUSE, requestClause } from '../judges/clause-of.ts';
import { ok } from '../judges/status.ts';
import { contentAsWritten, holdsContent, objectCreated, systemFields } from '../judges/values.ts';
import type { StepRecord } from '../judges/verdict.ts';
import type { Sent } from './comparison.ts';
import type { BodyValues } from '../target-api/target.ts';
import { WORDS, type KeyName, type Writer } from './step-kind.ts';
import type { World } from './world.ts';
import { search } from './read-steps.ts';

/**
 * Content with the sequence's word `word` planted at the start of its text (where no cut to a
 * limit reaches it), to search for, within the target's declared limits (the same content is
 * sent to both sides, and compared).
 */
export function plant(world: World, content: unknown, word: number): object {
  const text = `${world.word(word)} ${(content as { text: string }).text}`;
  return world.fit({ content: { ...(content as object), text } }).content as object;
}

export async function createObject(
  world: World,
  ref: number,
  writer: Writer,
  word: number,
  content: unknown,
): Promise<void> {
  const pair = world.expected.collection(ref);
  if (!pair) return;
  const key = writer === 'owner' ? pair.key : writer;
  const planted = plant(world, content, word);
  const before = world.expected.objects.length;
  await oneObject(
    world,
    pair,
    key,
    word,
    planted,
    `create an object in collection #${world.expected.numberOf(pair)} (key ${key}, word ${word % WORDS})`,
  );
  // Read back at once: what was sent is what a get answers.
  if (world.expected.objects.length > before && world.target.offers('getObject'))
    await getObject(world, before, key);
}

/**
 * Creates one object on both sides; `batch` records a batch's requests as one step (the
 * record is made by the caller, once every request of it is answered).
 */
async function oneObject(
  world: World,
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
  world.answered(
    requestClause(pair, key, true, OPERATION_CLAUSE.createObject),
    model,
    target,
    record,
    world.why(pair, key),
  );
  if (!ok(model.status)) return;
  const t = world.target.objectIn(target.json);
  const targetId = world.target.objectIdOf(t);
  // @note One id for two objects of the run (an id handed out again after a delete) breaks
  // what an identifier is for: the old reference now fetches the new object.
  const holder = world.expected.objects.find((other) => other.target === targetId);
  world.judged(
    objectCreated(
      targetId,
      holder && { n: world.expected.numberOf(holder), deleted: holder.deleted },
    ),
    record,
  );
  AFTER.createObject(world.expected, {
    object: {
      target: targetId!,
      model: world.model.objectIdOf(world.model.objectIn(model.json))!,
      key,
      collection: pair,
      word: word % WORDS,
      content: created(content),
      earlier: [],
      deleted: false,
      // @note Shown whole by the create's answer: a get that lacks a system field then breaks
      // the get (OBJ-GET-1), as after a get that showed them.
      complete: world.target.missingSystemFields(t).length === 0,
    },
    values: { content: content as object },
  });
}

export async function createObjects(
  world: World,
  ref: number,
  count: number,
  word: number,
): Promise<void> {
  const pair = world.expected.collection(ref);
  if (!pair) return;
  const key = pair.key;
  const request = `create ${count} objects at once in collection #${world.expected.numberOf(pair)} (key ${key}, word ${word % WORDS})`;
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

export async function getObject(world: World, ref: number, key: KeyName): Promise<void> {
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
