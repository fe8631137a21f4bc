/** Limits on parsed JSON that JSON.parse itself does not enforce: nesting depth and number range. */
/** Whether objects and arrays nest deeper than `max` levels; iterative, so any depth is safe. */
export function nestsDeeperThan(value: unknown, max: number): boolean {
  const stack: Array<[unknown, number]> = [[value, 1]];
  while (stack.length > 0) {
    const [item, depth] = stack.pop()!;
    if (typeof item !== 'object' || item === null) continue;
    if (depth > max) return true;
    for (const child of Object.values(item)) stack.push([child, depth + 1]);
  }
  return false;
}

/**
 * The JSON pointer of the first number a double cannot hold (JSON.parse reads `1e400` as
 * Infinity, which would be stored and answered as `null`), or undefined. Iterative, like
 * {@link nestsDeeperThan}, which has already bounded the depth.
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
      for (const child of item) stack.push(child);
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
