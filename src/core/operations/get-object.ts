import { json, type MockResponse } from '../http.ts';
import type { Handler, OperationContext } from './handler.ts';
import { problem } from '../problem.ts';
import { toObject } from '../store/records.ts';
import type { StoredObject } from '../store/store.ts';
import { collectionNotFound } from './get-collection.ts';

/**
 * `GET /collections/{collection_id}/objects/{object_id}`: the complete object, system fields included.
 * @see spec §2, §4 "Get an object" (OBJ-2, OBJ-3, OBJ-GET-1); docs/spec-gaps.md GAP-OBJ-PATH
 */
export const getObject: Handler = (context) => {
  const found = findObjectOr404(context);
  return 'status' in found ? found : json(200, toObject(found));
};

/**
 * The addressed object, or the 404 that says whether the collection or the object is missing.
 * Another account's collection or object is missing too (no existence oracle).
 */
export function findObjectOr404({
  state,
  accountId,
  params,
}: OperationContext): StoredObject | MockResponse {
  const collectionId = params.collection_id!;
  const objectId = params.object_id!;
  if (!state.store.findCollection(accountId, collectionId)) return collectionNotFound(collectionId);
  const record = state.store.findObject(accountId, collectionId, objectId);
  if (!record) {
    return problem(
      'object_not_found',
      `No object with id "${objectId}" exists in collection "${collectionId}".`,
    );
  }
  return record;
}
