/**
 * What an update leaves, by each style a target may take (the spec states no update): the value
 * a read must then show is the one of the description's `updates` style, or of any style when
 * the description says none. Each pair of the sequence keeps its value under every style.
 */
import { UPDATE_STYLES, type UpdateStyle } from '../target-api/description.ts';
import { canonical, type ByStyle, type CollectionPair, type StepRecord } from './comparison.ts';
import type { Explorer } from './explorer.ts';

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

/** The styles a read may show: the description's, or every one. */
function stylesOf(declared: UpdateStyle | undefined): readonly UpdateStyle[] {
  return declared ? [declared] : UPDATE_STYLES;
}

/**
 * The value a read must show that `shown` is, among the allowed styles' values (a value
 * several styles agree on counts once); undefined when it is none of them.
 */
export function matchingStyle(
  values: ByStyle,
  declared: UpdateStyle | undefined,
  shown: unknown,
  same: (expected: unknown, shown: unknown) => boolean = sameJson,
): UpdateStyle | undefined {
  return stylesOf(declared).find((style) => same(values[style], shown));
}

export function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(canonical(a)) === JSON.stringify(canonical(b));
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Fails unless a collection shows the metadata its writes left, by the description's update
 * style (`updates.metadata`), or by any style when it names none: the spec states no update.
 */
export function sameMetadata(
  world: Explorer,
  pair: CollectionPair,
  shown: unknown,
  record: StepRecord,
  where = 'metadata',
): void {
  const declared = world.target.description.updates.metadata;
  const style = matchingStyle(pair.metadata, declared, shown) ?? declared ?? 'replace';
  world.same('COLL-3', where, pair.metadata[style], shown, record);
}
