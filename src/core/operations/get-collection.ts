import type { MockResponse } from '../http.ts';
import type { Handler } from './handler.ts';
import { problem } from '../problem.ts';
import { toCollection, type CollectionRecord } from '../store/records.ts';

/** A collection's API representation as JSON text. */
export function collectionJson(record: CollectionRecord, objectCount: number): string {
  return JSON.stringify(toCollection(record, objectCount));
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
