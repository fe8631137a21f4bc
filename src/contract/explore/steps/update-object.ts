/** A partial update of an object's content (our document's PATCH): keys set, `null` ones removed. */
import { short } from '../../judges/json.ts';
import { stepKind } from '../step-kind.ts';
import { patch } from '../values.ts';
import { plant } from './create-object.ts';
import { writeContent } from './replace-object.ts';

export const updateObject = stepKind({
  kind: 'updateObject',
  weight: 2,
  fields: ({ ref, writer, word }) => ({ ref, key: writer, word, patch }),
  run: async (world, { ref, key, word, patch }) => {
    const pair = world.expected.object(ref);
    if (!pair) return;
    // @note The patch always sets the text, with a new word: every style then agrees on what a
    // search for the word finds.
    const planted = plant(world, { ...patch, text: '' }, word);
    const says = 'update part of the content';
    await writeContent(
      world,
      'updateObject',
      pair,
      key,
      word,
      planted,
      says,
      `: ${short(planted)}`,
    );
  },
});
