/** Creates a collection, with metadata, with one key (compared; an answer naming another collection ends the sequence). */
import { AFTER } from '../../expectations/effects.ts';
import { created } from '../../expectations/updates.ts';
import { keyClause, OPERATION_CLAUSE } from '../../judges/clause-of.ts';
import { ok } from '../../judges/status.ts';
import { collectionCreated } from '../../judges/values.ts';
import { stepKind, type KeyName } from '../step-kind.ts';
import { metadata } from '../values.ts';
import type { World } from '../world.ts';

export const createCollection = stepKind({
  kind: 'createCollection',
  weight: 4,
  fields: ({ key }) => ({ key, metadata }),
  run: async (world, step) => void (await create(world, step.key, step.metadata)),
});

/** Creates a collection, named anew or `name`; the sequence's number of it when the model made it. */
export async function create(
  world: World,
  key: KeyName,
  metadata: Record<string, unknown>,
  name = world.collectionName(String(world.nextName())),
): Promise<number | undefined> {
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
  if (!ok(model.status)) return undefined;
  world.judged(collectionCreated(targetId), record);
  AFTER.createCollection(world.expected, {
    collection: {
      target: targetId!,
      model: world.model.collectionIdOf(world.model.collectionIn(model.json))!,
      key,
      deleted: false,
      metadata: created(body.metadata),
      name,
    },
    values: body,
  });
  return world.expected.collections.length - 1;
}
