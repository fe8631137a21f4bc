/** Limits on parsed JSON that JSON.parse itself does not enforce: nesting depth and number range. */
// @note The depth check is shared with the contract suite, which must not import the core.
export { nestsDeeperThan } from '../openapi/json-depth.ts';

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
