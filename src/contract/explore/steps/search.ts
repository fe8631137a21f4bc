/** A search for one of the sequence's words, scoped to a collection or not: its hits and their content. */
import * as fc from '../fast-check.ts';
import { search as ask } from '../read-steps.ts';
import { stepKind, type KeyName } from '../step-kind.ts';

export type Search = { kind: 'search'; word: number; scoped: number | null; key: KeyName };

export const search = stepKind<Search>({
  kind: 'search',
  weight: 3,
  needs: ['search'],
  arbitrary: ({ word, ref, key }) =>
    fc.record({
      kind: fc.constant('search' as const),
      word,
      scoped: fc.option(ref, { nil: null }),
      key,
    }),
  run: (world, step) => world.settled(() => ask(world, step.word, step.scoped, step.key)),
});
