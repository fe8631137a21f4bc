import { json } from '../http.ts';
import type { Operation, Schemas } from '../operation.ts';
import { problem } from '../problem.ts';
import { toObject, type ObjectRecord } from '../records.ts';
import { queryTerms, score, words } from '../search-index.ts';
import { collectionNotFound } from './get-collection.ts';

/**
 * `POST /search`: finds the caller's objects whose content contains the query's words, ranked by
 * score (then creation date, then id), optionally only in the given collections.
 * @see spec §1, §4 "Search" (SEARCH-1); docs/spec-gaps.md GAP-SEARCH-* and GAP-SEARCH-MATCH
 */
export const searchObjects: Operation = ({ state, accountId, body }) => {
  const started = performance.now();
  const request = body as Schemas['SearchRequest'];
  const queryWords = [...new Set(words(request.query))];
  if (queryWords.length === 0) {
    return problem(
      'validation_failed',
      'The query must contain at least one word (letters or digits).',
      {
        errors: [{ location: 'body', pointer: '/query', message: 'contains no word' }],
      },
    );
  }

  const { store } = state;
  const collectionIds = request.collection_ids ?? store.collectionsOf(accountId).map((c) => c.id);
  for (const id of collectionIds) {
    if (!store.findCollection(accountId, id)) return collectionNotFound(id);
  }

  const query = queryTerms(queryWords);
  const hits: Array<{ record: ObjectRecord; score: number }> = [];
  for (const id of collectionIds) {
    for (const record of store.objectsOf(id)) {
      const value = score(record, query);
      if (value > 0) hits.push({ record, score: value });
    }
  }
  hits.sort(
    (a, b) =>
      b.score - a.score ||
      (a.record.created_at < b.record.created_at
        ? -1
        : a.record.created_at > b.record.created_at
          ? 1
          : 0) ||
      (a.record.id < b.record.id ? -1 : 1),
  );

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
  const page = hits.slice(offset, offset + limit);
  const hasMore = offset + limit < hits.length;
  return json(200, {
    data: page.map((hit) => ({
      score: Math.round(hit.score * 10_000) / 10_000,
      collection_id: hit.record.collection_id,
      object: toObject(hit.record),
    })),
    total: hits.length,
    has_more: hasMore,
    next_cursor: hasMore ? state.cursors.encodeOffset(scope, offset + limit) : null,
    took_ms: Math.round(performance.now() - started),
  });
};
