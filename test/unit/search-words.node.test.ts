/** The words the index counts are the words of the naive definition, whatever the text. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { countWords, words } from '../../src/core/search/search-index.ts';

const tally = (list: string[]) => {
  const counts = new Map<string, number>();
  for (const word of list) counts.set(word, (counts.get(word) ?? 0) + 1);
  return counts;
};

describe('countWords', () => {
  it.each([
    { content: { t: 'Hello, hello WORLD' }, want: { hello: 2, world: 1 } },
    {
      content: { t: 'Straße 42', u: ['café', { v: 'CAFÉ' }] },
      want: { straße: 1, '42': 1, café: 2 },
    },
    { content: { n: 7, b: true, z: null }, want: {} },
    {
      content: { whole: 'word', edges: '--Word__9x..', inner: 'a1 b2\tc3' },
      want: { word: 2, '9x': 1, a1: 1, b2: 1, c3: 1 },
    },
    { content: { t: 'İstanbul' }, want: Object.fromEntries(tally(words('İstanbul'))) },
  ])('counts $content', ({ content, want }) => {
    expect(Object.fromEntries(countWords(content))).toEqual(want);
  });

  it('counts exactly the words `words` splits, in ASCII and any other text', () => {
    const text = fc.oneof(
      fc.string({ unit: 'binary', maxLength: 40 }),
      fc.string({ unit: fc.constantFrom(...'aZ9 -_.,é東İß\u00a0'), maxLength: 40 }),
      fc.string({ maxLength: 40 }),
    );
    fc.assert(
      fc.property(text, (t) => {
        expect(countWords({ t })).toEqual(tally(words(t)));
      }),
      { seed: 20_260_514, numRuns: 2_000 },
    );
  });
});
