import { listPage } from './list-page.ts';
import type { Handler } from './handler.ts';
import { toObject } from '../store/records.ts';
import { collectionNotFound } from './get-collection.ts';

/**
 * `GET /collections/{collection_id}/objects`: a collection's objects by creation date, paginated.
 * @see docs/spec-gaps.md GAP-WRITE-OPS, GAP-PAGE-PARAMS
 */
export const listObjects: Handler = (context) => {
  const { state, accountId, params } = context;
  const collection = state.store.findCollection(accountId, params.collection_id!);
  if (!collection) return collectionNotFound(params.collection_id!);
  return listPage(
    context,
    `objects:${collection.id}`,
    state.store.objectsOf(collection.id),
    toObject,
  );
};
