/** Gets an object with one key: its content and system fields against what was written. */
import { allowed } from '../../expectations/updates.ts';
import { ok } from '../../judges/status.ts';
import { contentAsWritten, holdsContent, systemFields } from '../../judges/values.ts';
import { stepKind, type KeyName } from '../step-kind.ts';
import type { World } from '../world.ts';

export const getObject = stepKind({
  kind: 'getObject',
  weight: 3,
  fields: ({ ref, key }) => ({ ref, key }),
  // @note A get after a delete may show it a moment later (`consistency.cascade`).
  run: (world, step) => world.settled(() => get(world, step.ref, step.key), 'cascade'),
});

export async function get(world: World, ref: number, key: KeyName): Promise<void> {
  const pair = world.expected.object(ref);
  if (!pair) return;
  const request = `get object #${world.expected.numberOf(pair)} (key ${key})`;
  const [target, model, record] = await world.on('getObject', pair, key, request);
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
