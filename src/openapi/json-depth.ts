/**
 * How deep a JSON value nests: the one check of the mock (request bodies, loaded states) and of
 * the contract suite (a target's answers, recordings, HAR files, target descriptions), which must
 * not import each other. Code further on (JSON.stringify, recursive walks) overflows the stack on
 * a value nested deeper than a few thousand levels.
 */

/**
 * Whether objects and arrays nest deeper than `max` levels. Safe at any depth of `value`, and on
 * a value that contains itself (a YAML alias inside its own anchor): the walk goes at most
 * `max + 1` calls deep, and a cycle is deeper than any `max`.
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
