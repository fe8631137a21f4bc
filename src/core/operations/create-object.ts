import { json } from '../http.ts';
import type { Handler, Schemas } from './handler.ts';
import { toObject } from '../store/records.ts';
import { sizeOfContent } from '../store/store.ts';
import { collectionNotFound } from './get-collection.ts';
import { noRoomForContent } from './no-room.ts';

/**
 * `POST /collections/{collection_id}/objects`: stores user content; the service adds the system
 * fields (id, collection, timestamps, version).
 * @see spec §2 (OBJ-1, OBJ-3); docs/spec-gaps.md GAP-WRITE-OPS, GAP-CONTENT, GAP-BODY-FIELDS
 */
export const createObject: Handler = ({ state, accountId, params, body, prefix }) => {
  const collection = state.store.findCollection(accountId, params.collection_id!);
  if (!collection) return collectionNotFound(params.collection_id!);
  const { content } = body as Schemas['ObjectWrite'];
  const size = sizeOfContent(content);
  const full = noRoomForContent(state, 1, size, content, size);
  if (full) return full;
  const now = state.now();
  const record = state.store.createObject({
    id: state.newId(accountId, 'obj'),
    account_id: accountId,
    collection_id: collection.id,
    content,
    created_at: now,
    updated_at: now,
    version: 1,
  });
  return json(201, toObject(record), {
    location: `${prefix}/collections/${collection.id}/objects/${record.id}`,
  });
};
