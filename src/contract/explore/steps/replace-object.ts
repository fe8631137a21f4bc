/** Replaces an object's content with content holding one of the sequence's words. */
import * as fc from '../fast-check.ts';
import { replaceObject as replace } from '../write-steps.ts';
import { content } from '../values.ts';
import { stepKind, type Writer } from '../step-kind.ts';

export type ReplaceObject = {
  kind: 'replaceObject';
  ref: number;
  key: Writer;
  word: number;
  content: unknown;
};

export const replaceObject = stepKind<ReplaceObject>({
  kind: 'replaceObject',
  weight: 2,
  needs: ['replaceObject'],
  arbitrary: ({ ref, writer, word }) =>
    fc.record({
      kind: fc.constant('replaceObject' as const),
      ref,
      key: writer,
      word,
      content,
    }),
  run: (world, step) => replace(world, step.ref, step.key, step.word, step.content),
});
