import { json, type MockResponse } from '../http.ts';
import type { Handler, OperationContext, Schemas } from './handler.ts';
import { toObject } from '../store/records.ts';
import { sizeOfContent, type StoredObject } from '../store/store.ts';
import { findObjectOr404 } from './get-object.ts';
import { noRoomForContent } from './no-room.ts';

/**
 * `PUT /collections/{collection_id}/objects/{object_id}`: replaces the content; bumps `version`.
 * @see docs/spec-gaps.md GAP-WRITE-OPS
 */
export const replaceObject: Handler = (context) => {
  const found = findObjectOr404(context);
  if ('status' in found) return found;
  return saveContent(context, found, (context.body as Schemas['ObjectWrite']).content);
};

/** Stores new content for an object: a new `updated_at`, `version` + 1; answers the object. */
export function saveContent(
  context: OperationContext,
  record: StoredObject,
  content: Schemas['Content'],
): MockResponse {
  const size = sizeOfContent(content);
  const grows = size - sizeOfContent(record.content);
  const full = noRoomForContent(context.state, 0, grows, content, size);
  if (full) return full;
  const updatedAt = context.state.now();
  const next = context.state.store.updateObject(record, (draft) => {
    draft.content = content;
    draft.updated_at = updatedAt;
    draft.version += 1;
  });
  return json(200, toObject(next));
}
