/**
 * What an update leaves, by each style a target may take (the spec states no update): the value
 * a read must then show is the one of the description's `updates` style, or of any style when
 * the description says none. Each pair of the sequence keeps its value under every style.
 */
import { UPDATE_STYLES, type UpdateStyle } from '../target-api/description.ts';
import type { ByStyle } from './state.ts';

/** A value just created: every style holds it as sent. */
export function created(value: unknown): ByStyle {
  return { replace: value, merge: value, 'merge-patch': value };
}

/** Every style's value after an update that sent `sent`. */
export function updated(before: ByStyle, sent: unknown): ByStyle {
  return {
    replace: sent,
    merge: isObject(before.merge) && isObject(sent) ? { ...before.merge, ...sent } : sent,
    'merge-patch': mergePatch(before['merge-patch'], sent),
  };
}

/** RFC 7396: members of the patch replace theirs, `null` removes one, objects merge, the rest replace. */
export function mergePatch(target: unknown, patch: unknown): unknown {
  if (!isObject(patch)) return patch;
  const out: Record<string, unknown> = isObject(target) ? { ...target } : {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete out[key];
    else out[key] = mergePatch(out[key], value);
  }
  return out;
}

/**
 * The values a read may show: the declared style's, or every style's (replace first: the one a
 * message shows when none matches).
 */
export function allowed(values: ByStyle, declared: UpdateStyle | undefined): unknown[] {
  return (declared ? [declared] : UPDATE_STYLES).map((style) => values[style]);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
