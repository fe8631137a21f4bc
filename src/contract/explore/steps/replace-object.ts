/** Replaces an object's content with content holding one of the sequence's words. */
import { AFTER } from '../../expectations/effects.ts';
import type { ObjectPair } from '../../expectations/state.ts';
import { ok } from '../../judges/status.ts';
import { stepKind, WORDS, type Writer } from '../step-kind.ts';
import { content } from '../values.ts';
import type { World } from '../world.ts';
import { plant } from './create-object.ts';
import { get as getObject } from './get-object.ts';
import { ask as search } from './search.ts';

export const replaceObject = stepKind({
  kind: 'replaceObject',
  weight: 2,
  fields: ({ ref, writer, word }) => ({ ref, key: writer, word, content }),
  run: async (world, { ref, key, word, content }) => {
    const pair = world.expected.object(ref);
    if (!pair) return;
    const planted = plant(world, content, word);
    await writeContent(world, 'replaceObject', pair, key, word, planted, 'replace the content');
  },
});

/**
 * A write of an object's content (a replace, or a partial update: our document's
 * `updateObject`, whose result is the description's update style, or any style when it names
 * none), then read back at once: a get shows the new content, the new word finds the object, and
 * an old one no longer does.
 */
export async function writeContent(
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
  const [, model] = await world.on(operation, pair, key, request, () => ({ content }));
  if (!ok(model.status)) return;
  AFTER[operation](world.expected, { object: pair, values: { content } });
  pair.word = word % WORDS;
  const ref = world.expected.objects.indexOf(pair);
  if (world.target.offers('getObject')) await getObject(world, ref, pair.key);
  if (world.target.offers('search'))
    await world.settled(() => search(world, word, null, pair.key), 'search');
}
