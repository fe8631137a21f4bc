import { describe, expect, it } from 'vitest';
import { packTerms, queryTerms, score, words } from '../../src/core/search/search-index.ts';
import { Vocabulary } from '../../src/core/search/vocabulary.ts';

const scoreOf = (content: unknown, query: string) => {
  const vocabulary = new Vocabulary();
  return score(packTerms(content, vocabulary), queryTerms(words(query), vocabulary));
};

describe('words', () => {
  it.each([
    { text: 'Hello, World!', want: ['hello', 'world'] },
    { text: 'Straße 42 café', want: ['straße', '42', 'café'] },
    { text: '  --  ', want: [] },
    { text: 'ÉTÉ été', want: ['été', 'été'] },
  ])('splits "$text"', ({ text, want }) => {
    expect(words(text)).toEqual(want);
  });
});

describe('score', () => {
  // score = distinct query words found + occurrences / (occurrences + 1)
  it.each([
    { content: { title: 'refund policy' }, query: 'refund', want: 1 + 1 / 2 },
    { content: { title: 'refund refund refund' }, query: 'refund', want: 1 + 3 / 4 },
    { content: { title: 'refund policy' }, query: 'refund policy', want: 2 + 2 / 3 },
    { content: { title: 'refund policy' }, query: 'Refund REFUND', want: 1 + 1 / 2 },
    { content: { title: 'refund' }, query: 'shipping', want: 0 },
    { content: { a: ['refund', { b: 'refund' }], n: 7 }, query: 'refund', want: 1 + 2 / 3 },
    { content: { n: 42, ok: true }, query: '42', want: 0 },
    { content: { title: 'refunds' }, query: 'refund', want: 0 },
    { content: {}, query: 'anything', want: 0 },
  ])('$query in $content is $want', ({ content, query, want }) => {
    expect(scoreOf(content, query)).toBe(want);
  });

  it('ranks more distinct words above more occurrences of one word', () => {
    expect(scoreOf({ t: 'alpha beta' }, 'alpha beta')).toBeGreaterThan(
      scoreOf({ t: 'alpha alpha alpha alpha alpha' }, 'alpha beta'),
    );
  });
});
