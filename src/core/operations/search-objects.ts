import { json } from '../http.ts';
import type { Handler, Schemas } from './handler.ts';
import { problem } from '../problem.ts';
import { toObject } from '../store/records.ts';
import { distinctWords, MAX_QUERY_WORDS, queryTerms } from '../search/search-index.ts';
import { collectionNotFound } from './get-collection.ts';

/**
 * `POST /search`: finds the caller's objects whose content contains the query's words, ranked by
 * score (then creation date, then id), optionally only in the given collections.
 * @see spec §1, §4 "Search" (SEARCH-1); docs/spec-gaps.md GAP-SEARCH-* and GAP-SEARCH-MATCH
 */
export const searchObjects: Handler = ({ state, accountId, body }) => {
  const started = performance.now();
  const request = body as Schemas['SearchRequest'];
  const queryWords = distinctWords(request.query);
  if (queryWords.length === 0) {
    return problem(
      'validation_failed',
      'The query must contain at least one word (letters or digits).',
      {
        errors: [{ location: 'body', pointer: '/query', message: 'contains no word' }],
      },
    );
  }
  // @note A limit of the mock, not of the contract: a query's cost grows with its words.
  if (queryWords.length > MAX_QUERY_WORDS) {
    return problem(
      'validation_failed',
      `The query has ${queryWords.length} distinct words; this mock searches for at most ${MAX_QUERY_WORDS}.`,
      {
        errors: [
          {
            location: 'body',
            pointer: '/query',
            message: `must have at most ${MAX_QUERY_WORDS} distinct words (has ${queryWords.length})`,
          },
        ],
      },
    );
  }

  const { store } = state;
  const collectionIds = request.collection_ids ?? store.collectionsOf(accountId).map((c) => c.id);
  for (const id of collectionIds) {
    if (!store.findCollection(accountId, id)) return collectionNotFound(id);
  }

  const limit = request.limit ?? 10;
  // @note Without `collection_ids` the search spans the account, whatever collections it has
  // now: creating or deleting a collection must not turn a walk in progress into invalid_cursor.
  const span = request.collection_ids ? [...request.collection_ids].sort().join(',') : '*';
  const scope = `search:${accountId}:${queryWords.join(' ')}:${span}`;
  let offset = 0;
  if (request.cursor !== undefined) {
    const decoded = state.cursors.decodeOffset(scope, request.cursor);
    if (decoded === undefined) {
      return problem(
        'invalid_cursor',
        'The cursor is not one this search returned; search again without a cursor.',
        {
          errors: [
            { location: 'body', pointer: '/cursor', message: 'is not a cursor of this search' },
          ],
        },
      );
    }
    offset = decoded;
  }

  // @note The index reads only the posting lists of the query's words.
  const query = queryTerms(queryWords, store.vocabulary);
  const { page, total } = store.vocabulary.index.search(query, collectionIds, offset, limit);
  const hasMore = offset + limit < total;
  return json(200, {
    data: page.map((hit) => ({
      score: Math.round(hit.score * 10_000) / 10_000,
      collection_id: hit.record.collection_id,
      object: toObject(hit.record),
    })),
    total,
    has_more: hasMore,
    next_cursor: hasMore ? state.cursors.encodeOffset(scope, offset + limit) : null,
    took_ms: Math.round(performance.now() - started),
  });
};
