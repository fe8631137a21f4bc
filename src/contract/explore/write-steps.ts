/**
 * The steps of `explore` that change what exists: update a collection, replace or delete an
 * object. The spec states no such operation; they run where a description maps them, and what
 * follows them (a get, a count, a search) is judged on the stated clauses.
 */
import { Divergence, keyClause, ok, short } from './comparison.ts';
import { created, updated } from './updates.ts';
import type { OperationName } from '../target-api/description.ts';
import type { Explorer } from './explorer.ts';
import { getObject, onObject, plant } from './object-steps.ts';
import { search } from './read-steps.ts';
import { listObjects } from './object-list-steps.ts';
import { WORDS, type Writer } from './step-kind.ts';

export async function updateCollection(
  world: Explorer,
  ref: number,
  writer: Writer,
  metadata: Record<string, unknown>,
): Promise<void> {
  const pair = world.collection(ref);
  if (!pair) return;
  const key = writer === 'owner' ? pair.key : writer;
  const body = world.fit({ metadata });
  const [target, model] = await world.both('updateCollection', key, {
    params: (side) => ({ collection_id: pair[side] }),
    body: () => body,
  });
  const record = world.record(
    `update the metadata of collection #${world.collections.indexOf(pair) + 1} (key ${key})`,
    model,
    target,
  );
  world.agree(
    keyClause(key, true, pair.deleted ? 'DEL-1' : 'COLL-3'),
    model,
    target,
    record,
    world.why(pair, key),
  );
  if (!ok(model.status)) return;
  pair.metadata = updated(pair.metadata, body.metadata);
  // Read back at once: the metadata set, and the count as it was.
  if (world.target.offers('getCollection')) await world.getCollection(ref, pair.key);
}

export async function replaceObject(
  world: Explorer,
  ref: number,
  writer: Writer,
  word: number,
  content: unknown,
): Promise<void> {
  const list = world.objects;
  if (list.length === 0) return;
  const pair = list[ref % list.length]!;
  const key = writer === 'owner' ? pair.key : writer;
  const planted = plant(world, content, word);
  const request = `replace the content of object #${list.indexOf(pair) + 1} (key ${key}, word ${word % WORDS})`;
  const [, model] = await onObject(world, 'replaceObject', pair, key, request, 'OBJ-2', () => ({
    content: planted,
  }));
  if (!ok(model.status)) return;
  pair.earlier.push(...Object.values(pair.content));
  pair.content = created(planted);
  pair.word = word % WORDS;
  // Read back at once: a get shows the new content, the new word finds the object, and an old
  // one no longer does.
  if (world.target.offers('getObject')) await getObject(world, list.indexOf(pair), pair.key);
  if (world.target.offers('search')) await world.settled(() => search(world, word, null, pair.key));
}

export async function deleteObject(world: Explorer, ref: number, writer: Writer): Promise<void> {
  const list = world.objects;
  if (list.length === 0) return;
  const pair = list[ref % list.length]!;
  const key = writer === 'owner' ? pair.key : writer;
  const request = `delete object #${list.indexOf(pair) + 1} (key ${key})`;
  const [, model] = await onObject(world, 'deleteObject', pair, key, request, 'OBJ-2');
  if (!ok(model.status)) return;
  pair.deleted = true;
  // Read back at once through every operation that could show it: the collection counts one
  // object less, a get finds it gone, a search no longer finds it, nor the collection's list.
  const owner = pair.collection.key;
  const offers = (operation: OperationName) => world.target.offers(operation);
  if (offers('getCollection'))
    await world.getCollection(world.collections.indexOf(pair.collection), owner);
  if (offers('getObject')) await getObject(world, list.indexOf(pair), owner);
  if (offers('search')) await world.settled(() => search(world, pair.word, null, owner));
  if (offers('listObjects'))
    await listObjects(world, world.collections.indexOf(pair.collection), owner, 5);
}

/**
 * A partial update of an object's content (our document's `updateObject`): what it leaves is the
 * description's update style (`updates.content`), or any style when it names none.
 */
export async function updateObject(
  world: Explorer,
  ref: number,
  writer: Writer,
  word: number,
  patch: Record<string, unknown>,
): Promise<void> {
  const list = world.objects;
  if (list.length === 0) return;
  const pair = list[ref % list.length]!;
  const key = writer === 'owner' ? pair.key : writer;
  // @note The patch always sets the text, with a new word: every style then agrees on what a
  // search for the word finds.
  const planted = plant(world, { ...patch, text: '' }, word) as Record<string, unknown>;
  const request = `update part of the content of object #${list.indexOf(pair) + 1} (key ${key}, word ${word % WORDS}): ${short(planted)}`;
  const [, model] = await onObject(world, 'updateObject', pair, key, request, 'OBJ-2', () => ({
    content: planted,
  }));
  if (!ok(model.status)) return;
  pair.earlier.push(...Object.values(pair.content));
  pair.content = updated(pair.content, planted);
  pair.word = word % WORDS;
  if (world.target.offers('getObject')) await getObject(world, list.indexOf(pair), pair.key);
  if (world.target.offers('search')) await world.settled(() => search(world, word, null, pair.key));
}

/**
 * Several updates of one collection's metadata sent at once, each setting the same two keys to
 * its own number: whatever order the target took them in, a get must then show one update whole
 * (`a` and `b` from the same one), as some serial order would. The model races too; a last update
 * then sets both keys on both sides, so what each side holds is known again, as the update
 * style says.
 */
export async function raceUpdates(world: Explorer, ref: number, count: number): Promise<void> {
  const pair = world.collection(ref);
  if (!pair || pair.deleted) return;
  const key = pair.key;
  const n = world.collections.indexOf(pair) + 1;
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
    world.agree('COLL-3', model, target, record, world.why(pair, key));
  if (!sent.some(([, model]) => ok(model.status))) return;
  pair.metadata = updated(pair.metadata, bodies[0]!.metadata);
  if (world.target.offers('getCollection')) {
    const [target, model] = await world.both('getCollection', key, {
      params: (side) => ({ collection_id: pair[side] }),
    });
    const read = world.record(`get collection #${n} (key ${key})`, model, target);
    world.agree('COLL-GET-1', model, target, read);
    if (ok(target.status)) {
      const shown = world.target.metadataOf(world.target.collectionIn(target.json)) as
        Record<string, unknown> | undefined;
      const whole = bodies.some(
        (body) => body.metadata.a === shown?.a && body.metadata.b === shown?.b,
      );
      if (!whole)
        throw new Divergence(
          'COLL-3',
          `after ${count} updates at once, collection #${n} shows a ${short(shown?.a)} and b ${short(shown?.b)}: no one update whole, as no serial order would leave it`,
          read,
        );
    }
  }
  // Known again on both sides: every update of the race set a and b, and this one sets them too.
  await updateCollection(world, ref, 'owner', { a: 'settled', b: 'settled' });
}
