import { json } from '../http.ts';
import type { Handler, Schemas } from './handler.ts';
import { problem } from '../problem.ts';
import { firstIndex } from '../model/binary-search.ts';
import { compareByCreation } from '../model/creation-order.ts';
import { toObject, type ObjectRecord } from '../model/records.ts';
import { queryTerms, score, words } from '../model/search-index.ts';
import { collectionNotFound } from './get-collection.ts';

interface Hit {
  record: ObjectRecord;
  score: number;
}

/** Search order: score (highest first), then creation date, then id. */
function rank(a: Hit, b: Hit): number {
  if (a.score !== b.score) return b.score - a.score;
  return compareByCreation(a.record, b.record);
}

/**
 * The best `keep` hits in search order, and how many hits there were in all.
 * @note A page needs only the first offset + limit hits: keeping those in a small sorted array
 * costs one comparison per hit that does not make it, where sorting every hit (a common word
 * matches a quarter of the objects) cost most of a search. Deep pages fall back to one sort.
 */
class TopHits {
  total = 0;
  readonly #hits: Hit[] = [];
  readonly #sorted: boolean;

  constructor(readonly keep: number) {
    this.#sorted = keep <= 1_000;
  }

  offer(record: ObjectRecord, score: number): void {
    this.total += 1;
    const hit = { record, score };
    const hits = this.#hits;
    if (!this.#sorted) {
      hits.push(hit);
      return;
    }
    if (hits.length === this.keep && rank(hit, hits[hits.length - 1]!) >= 0) return;
    hits.splice(
      firstIndex(hits.length, (i) => rank(hits[i]!, hit) > 0),
      0,
      hit,
    );
    if (hits.length > this.keep) hits.pop();
  }

  /** The kept hits, best first. */
  best(): Hit[] {
    return this.#sorted ? this.#hits : this.#hits.sort(rank).slice(0, this.keep);
  }
}

/**
 * `POST /search`: finds the caller's objects whose content contains the query's words, ranked by
 * score (then creation date, then id), optionally only in the given collections.
 * @see spec §1, §4 "Search" (SEARCH-1); docs/spec-gaps.md GAP-SEARCH-* and GAP-SEARCH-MATCH
 */
export const searchObjects: Handler = ({ state, accountId, body }) => {
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

  const query = queryTerms(queryWords, store.vocabulary);
  const ranked = new TopHits(offset + limit);
  for (const id of collectionIds) {
    const { records, terms } = store.objectListOf(id);
    for (let i = 0; i < records.length; i++) {
      const value = score(terms[i]!, query);
      if (value > 0) ranked.offer(records[i]!, value);
    }
  }
  const hits = ranked.best();
  const page = hits.slice(offset, offset + limit);
  const hasMore = offset + limit < ranked.total;
  return json(200, {
    data: page.map((hit) => ({
      score: Math.round(hit.score * 10_000) / 10_000,
      collection_id: hit.record.collection_id,
      object: toObject(hit.record),
    })),
    total: ranked.total,
    has_more: hasMore,
    next_cursor: hasMore ? state.cursors.encodeOffset(scope, offset + limit) : null,
    took_ms: Math.round(performance.now() - started),
  });
};
