/** Limits on parsed JSON that JSON.parse itself does not enforce: nesting depth and number range. */
/**
 * Whether objects and arrays nest deeper than `max` levels. Safe at any depth of `value`: the
 * walk goes at most `max + 1` calls deep (callers pass `MAX_JSON_DEPTH`, 64).
 * @note Recursive, not a stack of `[value, depth]` pairs with an array of values per object:
 * that garbage was 400 bytes per object of a load, a seventh of all of it.
 */
export function nestsDeeperThan(value: unknown, max: number): boolean {
  return deeperThan(value, 1, max);
}

function deeperThan(value: unknown, depth: number, max: number): boolean {
  if (typeof value !== 'object' || value === null) return false;
  if (depth > max) return true;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) if (deeperThan(value[i], depth + 1, max)) return true;
    return false;
  }
  for (const key in value) {
    if (!Object.hasOwn(value, key)) continue;
    if (deeperThan((value as Record<string, unknown>)[key], depth + 1, max)) return true;
  }
  return false;
}

/**
 * The JSON pointer of the first number a double cannot hold (JSON.parse reads `1e400` as
 * Infinity, which would be stored and answered as `null`), or undefined. Iterative, so any depth
 * is safe.
 */
export function nonFiniteNumberAt(value: unknown): string | undefined {
  // @note A first pass without pointers: building a pointer string for every value of a large
  // snapshot cost as much as loading it, and almost every value is fine.
  if (!hasNonFinite(value)) return undefined;
  return pointerOfNonFinite(value);
}

function hasNonFinite(value: unknown): boolean {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const item = stack.pop();
    if (typeof item === 'number') {
      if (!Number.isFinite(item)) return true;
    } else if (Array.isArray(item)) {
      // @note Indexed, as every loop over a load's records: `for of` allocated an iterator
      // result per item here until the loop was optimised.
      for (let i = 0; i < item.length; i++) stack.push(item[i]);
    } else if (typeof item === 'object' && item !== null) {
      for (const key in item) stack.push((item as Record<string, unknown>)[key]);
    }
  }
  return false;
}

function pointerOfNonFinite(value: unknown): string | undefined {
  const stack: Array<[unknown, string]> = [[value, '']];
  while (stack.length > 0) {
    const [item, pointer] = stack.pop()!;
    if (typeof item === 'number' && !Number.isFinite(item)) return pointer || '/';
    if (typeof item !== 'object' || item === null) continue;
    for (const [key, child] of Object.entries(item)) {
      stack.push([child, `${pointer}/${key.replaceAll('~', '~0').replaceAll('/', '~1')}`]);
    }
  }
  return undefined;
}
