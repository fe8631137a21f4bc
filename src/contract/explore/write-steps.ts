/**
 * The steps of `explore` that change what exists: update a collection, replace or delete an
 * object. The spec states no such operation; they run where a description maps them, and what
 * follows them (a get, a count, a search) is judged on the stated clauses.
 */
import { AFTER } from '../expectations/effects.ts';
import { OPERATION_CLAUSE, requestClause } from '../judges/clause-of.ts';
import { ok } from '../judges/status.ts';
import { short } from '../judges/json.ts';
import { oneUpdateWhole } from '../judges/values.ts';
import type { OperationName } from '../target-api/description.ts';
import type { ObjectPair } from '../expectations/state.ts';
import type { World } from './world.ts';
import { getCollection } from './collection-steps.ts';
import { getObject, onObject, plant } from './object-steps.ts';
import { search } from './read-steps.ts';
import { listObjects } from './object-list-steps.ts';
import { WORDS, type Writer } from './step-kind.ts';

export async function updateCollection(
  world: World,
  ref: number,
  writer: Writer,
  metadata: Record<string, unknown>,
): Promise<void> {
  const pair = world.expected.collection(ref);
  if (!pair) return;
  const key = writer === 'owner' ? pair.key : writer;
  const body = world.fit({ metadata });
  const [target, model] = await world.both('updateCollection', key, {
    params: (side) => ({ collection_id: pair[side] }),
    body: () => body,
  });
  const record = world.record(
    `update the metadata of collection #${world.expected.numberOf(pair)} (key ${key})`,
    model,
    target,
  );
  world.answered(
    requestClause(pair, key, true, OPERATION_CLAUSE.updateCollection),
    model,
    target,
    record,
    world.why(pair, key),
  );
  if (!ok(model.status)) return;
  AFTER.updateCollection(world.expected, { collection: pair, values: body });
  // Read back at once: the metadata set, and the count as it was.
  if (world.target.offers('getCollection')) await getCollection(world, ref, pair.key);
}

/**
 * A write of an object's content (a replace, or a partial update: our document's
 * `updateObject`, whose result is the description's update style, or any style when it names
 * none), then read back at once: a get shows the new content, the new word finds the object, and
 * an old one no longer does.
 */
async function writeContent(
  world: World,
  operation: 'replaceObject' | 'updateObject',
  pair: ObjectPair,
  writer: Writer,
  word: number,
  content: object,
  says: string,
  after = '',
): Promise<void> {
  const key = writer === 'owner' ? pair.key : writer;
  const request = `${says} of object #${world.expected.numberOf(pair)} (key ${key}, word ${word % WORDS})${after}`;
  const [, model] = await onObject(world, operation, pair, key, request, () => ({ content }));
  if (!ok(model.status)) return;
  AFTER[operation](world.expected, { object: pair, values: { content } });
  pair.word = word % WORDS;
  const ref = world.expected.objects.indexOf(pair);
  if (world.target.offers('getObject')) await getObject(world, ref, pair.key);
  if (world.target.offers('search')) await world.settled(() => search(world, word, null, pair.key));
}

export async function replaceObject(
  world: World,
  ref: number,
  writer: Writer,
  word: number,
  content: unknown,
): Promise<void> {
  const pair = world.expected.object(ref);
  if (!pair) return;
  await writeContent(
    world,
    'replaceObject',
    pair,
    writer,
    word,
    plant(world, content, word),
    'replace the content',
  );
}

export async function updateObject(
  world: World,
  ref: number,
  writer: Writer,
  word: number,
  patch: Record<string, unknown>,
): Promise<void> {
  const pair = world.expected.object(ref);
  if (!pair) return;
  // @note The patch always sets the text, with a new word: every style then agrees on what a
  // search for the word finds.
  const planted = plant(world, { ...patch, text: '' }, word);
  await writeContent(
    world,
    'updateObject',
    pair,
    writer,
    word,
    planted,
    'update part of the content',
    `: ${short(planted)}`,
  );
}

export async function deleteObject(world: World, ref: number, writer: Writer): Promise<void> {
  const { expected } = world;
  const pair = expected.object(ref);
  if (!pair) return;
  const key = writer === 'owner' ? pair.key : writer;
  const request = `delete object #${expected.numberOf(pair)} (key ${key})`;
  const [, model] = await onObject(world, 'deleteObject', pair, key, request);
  if (!ok(model.status)) return;
  AFTER.deleteObject(expected, { object: pair, values: {} });
  // Read back at once through every operation that could show it: the collection counts one
  // object less, a get finds it gone, a search no longer finds it, nor the collection's list.
  const owner = pair.collection.key;
  const offers = (operation: OperationName) => world.target.offers(operation);
  const collection = expected.collections.indexOf(pair.collection);
  if (offers('getCollection')) await getCollection(world, collection, owner);
  if (offers('getObject')) await getObject(world, expected.objects.indexOf(pair), owner);
  if (offers('search')) await world.settled(() => search(world, pair.word, null, owner));
  if (offers('listObjects')) await listObjects(world, collection, owner, 5);
}

/**
 * Several updates of one collection's metadata sent at once, each setting the same two keys to
 * its own number: whatever order the target took them in, a get must then show one update whole
 * (`a` and `b` from the same one), as some serial order would. The model races too; a last update
 * then sets both keys on both sides, so what each side holds is known again, as the update
 * style says.
 */
export async function raceUpdates(world: World, ref: number, count: number): Promise<void> {
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
