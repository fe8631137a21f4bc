/** Creates an object holding one of the sequence's words, in a collection. */
import { AFTER } from '../../expectations/effects.ts';
import type { CollectionPair } from '../../expectations/state.ts';
import { created } from '../../expectations/updates.ts';
import { OPERATION_CLAUSE, requestClause } from '../../judges/clause-of.ts';
import { ok } from '../../judges/status.ts';
import { objectCreated } from '../../judges/values.ts';
import type { StepRecord } from '../../judges/verdict.ts';
import type { KeyName } from '../step-kind.ts';
import { stepKind, WORDS, type Writer } from '../step-kind.ts';
import { content } from '../values.ts';
import type { World } from '../world.ts';
import { get as getObject } from './get-object.ts';

export const createObject = stepKind({
  kind: 'createObject',
  weight: 4,
  fields: ({ ref, writer, word }) => ({ ref, key: writer, word, content }),
  run: (world, step) => create(world, step.ref, step.key, step.word, step.content),
});

/**
 * Content with the sequence's word `word` planted at the start of its text (where no cut to a
 * limit reaches it), to search for, within the target's declared limits (the same content is
 * sent to both sides, and compared).
 */
export function plant(world: World, content: unknown, word: number): object {
  const text = `${world.word(word)} ${(content as { text: string }).text}`;
  return world.fit({ content: { ...(content as object), text } }).content as object;
}
async function create(
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
export async function oneObject(
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
