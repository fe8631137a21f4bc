/**
 * The mock's cap on the distinct words of a search query (docs/spec-gaps.md GAP-SEARCH-WORDS):
 * words as GAP-SEARCH-MATCH splits them, each counted once; a query over the cap is refused with
 * 400 `validation_failed` naming `query`, the limit and the count.
 */
import { describe, expect, it } from 'vitest';
import { createMock, emptyState } from '../../src/index.ts';
import { distinctWords, MAX_QUERY_WORDS } from '../../src/core/search/search-index.ts';
import { send } from '../support/in-process.ts';

/** `count` distinct words of letters only (digits would do too): w-a, w-b, ... */
const distinct = (count: number) =>
  Array.from({ length: count }, (_, i) => `w${String.fromCharCode(97 + (i % 26))}${i}`);

describe('distinctWords', () => {
  it.each([
    { query: 'refund policy', want: ['refund', 'policy'] },
    { query: 'Refund refund REFUND', want: ['refund'] },
    { query: 'café, CAFÉ; straße 42 42', want: ['café', 'straße', '42'] },
    { query: '  --  ', want: [] },
    { query: 'a-b_c.d', want: ['a', 'b', 'c', 'd'] },
    { query: '東京 東京', want: ['東京'] },
  ])('splits $query into $want', ({ query, want }) => {
    expect(distinctWords(query)).toEqual(want);
  });
});

describe('POST /search: the cap on query words', async () => {
  const mock = await createMock({ initialState: emptyState() });
  const search = (query: string) =>
    send(mock, { method: 'POST', path: '/search', body: { query } });

  it(`answers a query of ${MAX_QUERY_WORDS} distinct words`, async () => {
    const answer = await search(distinct(MAX_QUERY_WORDS).join(' '));
    expect(answer.status).toBe(200);
  });

  it(`refuses a query of ${MAX_QUERY_WORDS + 1} distinct words with 400 validation_failed`, async () => {
    const answer = await search(distinct(MAX_QUERY_WORDS + 1).join(' '));
    expect(answer.status).toBe(400);
    expect(answer.json).toMatchObject({
      code: 'validation_failed',
      status: 400,
      detail: `The query has ${MAX_QUERY_WORDS + 1} distinct words; this mock searches for at most ${MAX_QUERY_WORDS}.`,
      errors: [
        {
          location: 'body',
          pointer: '/query',
          message: `must have at most ${MAX_QUERY_WORDS} distinct words (has ${MAX_QUERY_WORDS + 1})`,
        },
      ],
    });
  });

  it('counts a word repeated in any letter case once', async () => {
    const words = distinct(MAX_QUERY_WORDS);
    const query = [...words, ...words.map((word) => word.toUpperCase()), words[0]].join(' ');
    expect((await search(query)).status).toBe(200);
  });
});
