import { json } from '../http.ts';
import type { Operation, Schemas } from '../operation.ts';
import { toObject } from '../records.ts';
import { findObjectOr404 } from './get-object.ts';

/**
 * `PUT /collections/{collection_id}/objects/{object_id}`: replaces the content; bumps `version`.
 * @see docs/spec-gaps.md GAP-WRITE-OPS
 */
export const replaceObject: Operation = async (context) => {
  const found = findObjectOr404(context);
  if ('status' in found) return found;
  const content = (context.body as Schemas['ObjectWrite']).content;
  const updatedAt = context.state.now();
  const next = await context.state.store.updateObject(found, (draft) => {
    draft.content = content;
    draft.updated_at = updatedAt;
    draft.version += 1;
  });
  return json(200, toObject(next));
};
