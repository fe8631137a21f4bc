import { mergePatch } from '../primitives/merge-patch.ts';
import type { Handler, Schemas } from './handler.ts';
import { findObjectOr404 } from './get-object.ts';
import { saveContent } from './replace-object.ts';

/**
 * `PATCH /collections/{collection_id}/objects/{object_id}`: applies a JSON Merge Patch to the
 * content; bumps `version`.
 * @see https://www.rfc-editor.org/rfc/rfc7396; docs/spec-gaps.md GAP-WRITE-OPS
 */
export const updateObject: Handler = (context) => {
  const found = findObjectOr404(context);
  if ('status' in found) return found;
  const patch = (context.body as Schemas['ObjectPatch']).content;
  return saveContent(context, found, mergePatch(found.content, patch) as Schemas['Content']);
};
