import { json } from '../http.ts';
import type { Handler } from './handler.ts';
import { problem } from '../problem.ts';
import { toCollection } from '../model/records.ts';

/** `GET /collections/{collection_id}`. @see spec §4 "Get a collection" (COLL-GET-1) */
export const getCollection: Handler = ({ state, accountId, params }) => {
  const record = state.store.findCollection(accountId, params.collection_id!);
  if (!record) return collectionNotFound(params.collection_id!);
  return json(200, toCollection(record, state.store.objectCount(record.id)));
};

/** The 404 for a collection that does not exist, was deleted, or belongs to another account. */
export function collectionNotFound(id: string) {
  return problem('collection_not_found', `No collection with id "${id}" exists in this account.`);
}
