import type { MockResponse } from '../http.ts';
import type { Handler } from './handler.ts';
import { problem } from '../problem.ts';
import { toCollection, type CollectionRecord } from '../store/records.ts';

/**
 * The JSON text of each collection as last answered, with the object count it showed.
 * @note Correct by construction: a stored record is frozen and replaced on every change
 * (`record-copy.ts`), so the record and its count decide the text. A repeated read, or a walk
 * over many collections that no cache of answers can hold, reuses it instead of building and
 * serialising the same representation again. Weak: the text goes with the record.
 */
const answered = new WeakMap<CollectionRecord, { objectCount: number; text: string }>();

/** A collection's API representation as JSON text (the same bytes as `JSON.stringify`). */
export function collectionJson(record: CollectionRecord, objectCount: number): string {
  const last = answered.get(record);
  if (last?.objectCount === objectCount) return last.text;
  const text = JSON.stringify(toCollection(record, objectCount));
  answered.set(record, { objectCount, text });
  return text;
}

/** `GET /collections/{collection_id}`. @see spec §4 "Get a collection" (COLL-GET-1) */
export const getCollection: Handler = ({ state, accountId, params }): MockResponse => {
  const record = state.store.findCollection(accountId, params.collection_id!);
  if (!record) return collectionNotFound(params.collection_id!);
  return {
    status: 200,
    headers: { 'content-type': 'application/json' },
    body: collectionJson(record, state.store.objectCount(record.id)),
  };
};

/** The 404 for a collection that does not exist, was deleted, or belongs to another account. */
export function collectionNotFound(id: string) {
  return problem('collection_not_found', `No collection with id "${id}" exists in this account.`);
}
