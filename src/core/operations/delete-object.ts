import { noContent } from '../http.ts';
import type { Handler } from './handler.ts';
import { findObjectOr404 } from './get-object.ts';

/**
 * `DELETE /collections/{collection_id}/objects/{object_id}`: removes one object, permanently.
 * @see docs/spec-gaps.md GAP-WRITE-OPS, GAP-STATES
 */
export const deleteObject: Handler = (context) => {
  const found = findObjectOr404(context);
  if ('status' in found) return found;
  context.state.store.deleteObject(found);
  return noContent();
};
