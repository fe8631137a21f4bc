/**
 * The store's own copy of a record: JSON-shaped data copied and frozen, every object and array
 * of it. A stored record is never changed, only replaced (an update stores a new record), so
 * every cache of answers, the per-record JSON and the state file may rely on that.
 */

/**
 * A frozen copy of JSON-shaped data: plain objects and arrays are copied and frozen, anything
 * else is kept as it is.
 * @note A generic deep copy (`structuredClone`) was a third of the time of seeding; this copy
 * gives records of one shape, which V8 keeps in fast mode, and freezes each node as it is made.
 */
export function frozenCopy<V>(value: V): V {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) {
    const copy = new Array(value.length);
    for (let i = 0; i < value.length; i++) copy[i] = frozenCopy(value[i]);
    return Object.freeze(copy) as V;
  }
  const prototype = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) return value;
  const copy: Record<string, unknown> = {};
  // @note `for in` with `hasOwn`, not `Object.keys`: the same keys in the same order, without an
  // array per object copied.
  for (const key in value) {
    if (!Object.hasOwn(value, key)) continue;
    const item = frozenCopy((value as Record<string, unknown>)[key]);
    // @note A JSON `__proto__` key is an own property; assigning it would set the prototype.
    if (key === '__proto__')
      Object.defineProperty(copy, key, {
        value: item,
        enumerable: true,
        writable: true,
        configurable: true,
      });
    else copy[key] = item;
  }
  return Object.freeze(copy) as V;
}

/**
 * A record changed: a shallow draft of `previous` given to `change`, then frozen. The draft's
 * own members may be replaced; a member `change` sets is copied and frozen with it, so nothing
 * the caller still holds can change the stored record later.
 */
export function changedRecord<T extends object>(previous: T, change: (draft: T) => void): T {
  const draft = { ...previous };
  change(draft);
  for (const key of Object.keys(draft) as Array<keyof T>)
    if (draft[key] !== previous[key]) draft[key] = frozenCopy(draft[key]);
  return Object.freeze(draft);
}
