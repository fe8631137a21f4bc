/** Creates an object holding one of the sequence's words, in a collection. */
import * as fc from '../fast-check.ts';
import { createObject as create } from '../object-steps.ts';
import { content } from '../values.ts';
import { stepKind, type Writer } from '../step-kind.ts';

export type CreateObject = {
  kind: 'createObject';
  ref: number;
  key: Writer;
  word: number;
  content: unknown;
};

export const createObject = stepKind<CreateObject>({
  kind: 'createObject',
  weight: 4,
  needs: ['createObject'],
  arbitrary: ({ ref, writer, word }) =>
    fc.record({
      kind: fc.constant('createObject' as const),
      ref,
      key: writer,
      word,
      content,
    }),
  run: (world, step) => create(world, step.ref, step.key, step.word, step.content),
});
