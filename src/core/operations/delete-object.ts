import { noContent } from '../http.ts';
import type { Operation } from '../operation.ts';
import { findObjectOr404 } from './get-object.ts';

/**
 * `DELETE /collections/{collection_id}/objects/{object_id}`: removes one object, permanently.
 * @see docs/spec-gaps.md GAP-WRITE-OPS, GAP-STATES
 */
export const deleteObject: Operation = (context) => {
  const found = findObjectOr404(context);
  if ('status' in found) return found;
  context.state.store.deleteObject(found);
  return noContent();
};
