/**
 * What `mock.db` takes from a test's own objects: JSON values only. A `Date`, a typed array or a
 * class instance was kept by reference and unfrozen, so a later change to it changed what the API
 * answered while its caches and the search index kept the old value; a function was stored; a
 * cyclic object sent the number checks round for ever until the process ran out of memory.
 */
import { MAX_JSON_DEPTH } from './limits.ts';

/**
 * Why `value` is not a JSON value, naming where in it (`content.when is a Date, not a JSON
 * value`), or undefined when it is one: null, a boolean, a string, a finite number, or an array
 * or plain object of JSON values. A member whose value is `undefined` is one JSON leaves out.
 * @param path The name of `value` in the message (`content`).
 * @note Recursive: the walk stops at one level past the API's nesting limit (a cycle is caught
 * before that), so no input can take it deeper than that.
 */
export function notJsonAt(value: unknown, path: string): string | undefined {
  return walk(value, path, []);
}

function walk(value: unknown, path: string, ancestors: object[]): string | undefined {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return undefined;
    case 'number':
      return Number.isFinite(value) ? undefined : `${path} is ${value}, not a JSON value`;
    case 'object':
      break;
    default:
      return `${path} is ${typeof value === 'undefined' ? 'undefined' : `a ${typeof value}`}, not a JSON value`;
  }
  if (value === null) return undefined;
  if (ancestors.includes(value)) return `${path} is a cycle (it contains itself), not a JSON value`;
  if (ancestors.length > MAX_JSON_DEPTH) return `${path} nests deeper than the API accepts`;
  const prototype: unknown = Object.getPrototypeOf(value);
  ancestors.push(value);
  try {
    if (Array.isArray(value) && prototype === Array.prototype) {
      for (let i = 0; i < value.length; i++) {
        const problem = walk(value[i], `${path}[${i}]`, ancestors);
        if (problem !== undefined) return problem;
      }
      return undefined;
    }
    if (prototype !== Object.prototype && prototype !== null)
      return `${path} is ${kindOf(value)}, not a JSON value`;
    for (const key in value) {
      if (!Object.hasOwn(value, key)) continue;
      const item = (value as Record<string, unknown>)[key];
      if (item === undefined) continue;
      const problem = walk(item, `${path}.${key}`, ancestors);
      if (problem !== undefined) return problem;
    }
    return undefined;
  } finally {
    ancestors.pop();
  }
}

/** "a Date", "a Uint8Array", "an instance of Point": what a non-plain object is. */
function kindOf(value: object): string {
  const name = (value.constructor as { name?: unknown } | undefined)?.name;
  if (typeof name !== 'string' || name === '') return 'an object with a prototype';
  const builtIn = (globalThis as Record<string, unknown>)[name] === value.constructor;
  // @note "a Uint8Array", "an ArrayBuffer": the article goes by the sound, U being "you".
  return builtIn ? `a${/^[AEIO]/.test(name) ? 'n' : ''} ${name}` : `an instance of ${name}`;
}
