function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Applies a JSON Merge Patch: objects merge, `null` removes a member, anything else replaces.
 * Members are defined, never assigned, so a `"__proto__"` key in a patch stays a plain member
 * and cannot reach any prototype.
 * @see https://www.rfc-editor.org/rfc/rfc7396#section-2
 */
export function mergePatch(target: unknown, patch: unknown): unknown {
  if (!isPlainObject(patch)) return patch;
  const result: Record<string, unknown> = {};
  if (isPlainObject(target)) {
    for (const key of Object.keys(target)) define(result, key, target[key]);
  }
  for (const key of Object.keys(patch)) {
    const value = patch[key];
    if (value === null) delete result[key];
    else
      define(result, key, mergePatch(Object.hasOwn(result, key) ? result[key] : undefined, value));
  }
  return result;
}

function define(object: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(object, key, {
    value,
    enumerable: true,
    writable: true,
    configurable: true,
  });
}
