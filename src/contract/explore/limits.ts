/** The sizes a target declares it refuses past (`limits` in its description): explore stays within them. */

/** `value` with every string longer than `max` characters cut to `max` (code points kept whole). */
export function withinLimits<T>(value: T, max: number | undefined): T {
  if (max === undefined) return value;
  const cut = (v: unknown): unknown => {
    if (typeof v === 'string') {
      if (v.length <= max) return v;
      let out = '';
      for (const ch of v) {
        if (out.length + ch.length > max) break;
        out += ch;
      }
      return out;
    }
    if (Array.isArray(v)) return v.map(cut);
    if (v && typeof v === 'object')
      return Object.fromEntries(Object.entries(v).map(([k, inner]) => [k, cut(inner)]));
    return v;
  };
  return cut(value) as T;
}
