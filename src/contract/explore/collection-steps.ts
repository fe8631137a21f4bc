/** The steps of `explore` on collections: create, get (compared), delete (read back). */
import { AFTER } from '../expectations/effects.ts';
import { allowed, created } from '../expectations/updates.ts';
import type { CollectionPair } from '../expectations/state.ts';
import { requestClause, keyClause, OPERATION_CLAUSE } from '../judges/clause-of.ts';
import { ok } from '../judges/status.ts';
import { collectionCreated, metadataAsWritten, objectCount } from '../judges/values.ts';
import { refusedToDelete } from '../judges/ownership.ts';
import type { StepRecord } from '../judges/verdict.ts';
import type { World } from './world.ts';
import { getObject } from './object-steps.ts';
import { search } from './read-steps.ts';
import type { KeyName } from './step-kind.ts';

export async function createCollection(
  world: World,
  key: KeyName,
  metadata: Record<string, unknown>,
): Promise<void> {
  const name = world.collectionName(String(world.nextName()));
  const body = world.fit({ name, metadata });
  // @note Past the target's clock's resolution, when a later walk orders what is created
  // (creation-clock.ts): else a coarse clock gives them one date, and no order could be wrong.
  const spaced = await world.spacing.before(world.stepNumber, world.walking);
  const [target, model] = await world.both('createCollection', key, { body: () => body });
  const answer = world.target.collectionIn(target.json);
  const targetId = ok(target.status) ? world.target.collectionIdOf(answer) : undefined;
  if (targetId !== undefined) world.spacing.after(world.target.createdAtOf(answer), spaced);
  // @note Ownership is decided once (`RunData.claim`): a create that answers a collection listed
  // before the run, or one named otherwise (a get-or-create, a cache), hands the sequence
  // someone else's data: it ends here, before any step could write to it or delete it.
  const refused =
    targetId === undefined
      ? undefined
      : await world.run.claim(targetId, answer, name, world.keys[key] ?? '');
  const record = world.record(`create collection ${name} (key ${key})`, model, target);
  world.answered(keyClause(key, true, OPERATION_CLAUSE.createCollection), model, target, record);
  if (refused !== undefined) world.judged(collectionCreated(targetId, refused), record);
  if (!ok(model.status)) return;
  world.judged(collectionCreated(targetId), record);
  AFTER.createCollection(world.expected, {
    collection: {
      target: targetId!,
      model: world.model.collectionIdOf(world.model.collectionIn(model.json))!,
      key,
      deleted: false,
      metadata: created(body.metadata),
    },
    values: body,
  });
}

/** The metadata and object count a collection shows, where it shows them, judged. */
export function judgeSummary(
  world: World,
  pair: CollectionPair,
  shown: unknown,
  twin: unknown,
  record: StepRecord,
  where: string,
): void {
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

export async function getCollection(world: World, ref: number, key: KeyName): Promise<void> {
  const pair = world.expected.collection(ref);
  if (!pair) return;
  const [target, model] = await world.both('getCollection', key, {
    params: (side) => ({ collection_id: pair[side] }),
  });
  const record = world.record(
    `get collection #${world.expected.numberOf(pair)} (key ${key})`,
    model,
    target,
  );
  world.answered(
    requestClause(pair, null, false, OPERATION_CLAUSE.getCollection),
    model,
    target,
    record,
    world.why(pair, key),
  );
  if (!ok(model.status)) return;
  judgeSummary(
    world,
    pair,
    world.target.collectionIn(target.json),
    world.model.collectionIn(model.json),
    record,
    '',
  );
}

/** Deletes a collection; `readBack` gets it (and an object it held) at once, as a step does. */
export async function deleteCollection(
  world: World,
  ref: number,
  key: KeyName,
  readBack = true,
): Promise<void> {
  const pair = world.expected.collection(ref);
  if (!pair) return;
  const request = `delete collection #${world.expected.numberOf(pair)} (key ${key})`;
  // @note Every delete reads the collection back first, as the clean-up does: one shown with a
  // name the run never gave it is someone else's now, and is not deleted.
  const refused = await world.mayNotDelete(pair);
  if (refused !== undefined) {
    const record = { request, model: 'not sent', target: 'not sent' };
    world.records.push(record);
    world.judged(refusedToDelete(refused), record);
  }
  const [target, model] = await world.both('deleteCollection', key, {
    params: (side) => ({ collection_id: pair[side] }),
  });
  const record = world.record(request, model, target);
  world.answered(
    requestClause(pair, key, true, OPERATION_CLAUSE.deleteCollection),
    model,
    target,
    record,
    world.why(pair, key),
  );
  if (!ok(model.status)) return;
  AFTER.deleteCollection(world.expected, { collection: pair, values: {} });
  // Gone on both sides: the clean-up has nothing to delete again.
  world.run.forget(pair.target);
  if (!readBack) return;
  // Read back at once: the collection is gone, and so is an object it held.
  if (world.target.offers('getCollection')) await getCollection(world, ref, pair.key);
  const held = world.expected.objects.findIndex((object) => object.collection === pair);
  if (held < 0) return;
  if (world.target.offers('getObject')) await getObject(world, held, pair.key);
  if (!world.target.offers('search')) return;
  // And a search for its word finds none of the collection's objects (DEL-2).
  const word = world.expected.objects[held]!.word;
  await world.settled(() => search(world, word, null, pair.key));
}
