import { json } from '../http.ts';
import type { Handler, Schemas } from './handler.ts';
import { toCollection } from '../store/records.ts';
import { sizeOfCollection } from '../store/store.ts';
import { nameTaken } from './create-collection.ts';
import { collectionNotFound } from './get-collection.ts';
import { noRoom } from './no-room.ts';

/**
 * `PATCH /collections/{collection_id}`: renames a collection and/or replaces its metadata.
 * @see docs/spec-gaps.md GAP-WRITE-OPS
 */
export const updateCollection: Handler = ({ state, accountId, params, body }) => {
  const record = state.store.findCollection(accountId, params.collection_id!);
  if (!record) return collectionNotFound(params.collection_id!);
  const change = body as Schemas['CollectionUpdate'];
  if (change.name !== undefined && change.name !== record.name) {
    if (state.store.findCollectionByName(accountId, change.name)) return nameTaken(change.name);
  }
  const grows =
    sizeOfCollection({
      name: change.name ?? record.name,
      metadata: change.metadata ?? record.metadata,
    }) - sizeOfCollection(record);
  const full = noRoom(state, 0, grows);
  if (full) return full;
  const updatedAt = state.now();
  const next = state.store.updateCollection(record, (draft) => {
    if (change.name !== undefined) draft.name = change.name;
    if (change.metadata !== undefined) draft.metadata = change.metadata;
    draft.updated_at = updatedAt;
  });
  return json(200, toCollection(next, state.store.objectCount(next.id)));
};
