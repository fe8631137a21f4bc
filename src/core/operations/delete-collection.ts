import { noContent } from '../http.ts';
import type { Handler } from './handler.ts';
import { collectionNotFound } from './get-collection.ts';

/**
 * `DELETE /collections/{collection_id}`: removes the collection and all its objects, permanently.
 * Afterwards the collection, its objects, its list entry and its search hits are gone, and a
 * second delete is a 404.
 * @see spec §3, §4 "Delete a collection" (DEL-1, DEL-2, DEL-3); docs/spec-gaps.md GAP-DEL-RESP
 */
export const deleteCollection: Handler = ({ state, accountId, params }) => {
  const record = state.store.findCollection(accountId, params.collection_id!);
  if (!record) return collectionNotFound(params.collection_id!);
  state.store.deleteCollection(record);
  return noContent();
};
