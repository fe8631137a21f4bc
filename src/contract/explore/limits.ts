/** The sizes a target declares it refuses past (`limits` in its description): explore stays within them. */
import type { Limits } from '../target-api/description.ts';
import type { BodyValues } from '../target-api/target.ts';

/** `value` with every string longer than `max` characters cut to `max` (code points kept whole). */
export function withinLimits<T>(value: T, max: number | undefined): T {
  if (max === undefined) return value;
  const cut = (v: unknown): unknown => {
    if (typeof v === 'string') return v.length <= max ? v : cutString(v, max);
    if (Array.isArray(v)) return v.map(cut);
    if (v && typeof v === 'object')
      return Object.fromEntries(Object.entries(v).map(([k, inner]) => [k, cut(inner)]));
    return v;
  };
  return cut(value) as T;
}

/** The first code points of `text` within `max` UTF-16 units. */
function cutString(text: string, max: number): string {
  let out = '';
  for (const ch of text) {
    if (out.length + ch.length > max) break;
    out += ch;
  }
  return out;
}

/**
 * The largest body sent to a target whose description states no `limits.body`: room for the
 * longest texts explore makes in ASCII (past a 64 KiB column), under the 256 KiB many servers
 * take by default. A target that refuses less says so in its description.
 */
const DEFAULT_BODY_BYTES = 200_000;

/**
 * A body at least this large that the target refuses as too large (413) is its own limit, not a
 * divergence: the spec states no size (§8). The sequence ends there, not judged.
 */
export const LARGE_BODY_BYTES = 16 * 1024;

/** The bytes of the run's values as JSON: about what a body template makes of them. */
export function bodyBytes(values: BodyValues | undefined): number {
  return values === undefined ? 0 : Buffer.byteLength(JSON.stringify(values)) + TEMPLATE_SLACK;
}

/** What the body templates wrap around the run's values, at most (names of fields, braces). */
const TEMPLATE_SLACK = 512;

/**
 * The run's values of one request within every declared limit: strings cut to `limits.string`,
 * metadata to its first `limits.metadataKeys` keys, and the longest strings halved until the
 * values fit `limits.body` bytes of JSON. The same on both sides, and what the pairs remember.
 */
export function fit(values: BodyValues | undefined, limits: Limits): BodyValues | undefined {
  if (values === undefined) return values;
  // @note Only what the run makes up: a name or a query is the run's own, never cut.
  let data = withinLimits({ metadata: values.metadata, content: values.content }, limits.string);
  if (limits.metadataKeys !== undefined && data.metadata)
    data = {
      ...data,
      metadata: Object.fromEntries(Object.entries(data.metadata).slice(0, limits.metadataKeys)),
    };
  const max = limits.body ?? DEFAULT_BODY_BYTES;
  const size = () => bodyBytes({ ...values, ...data });
  for (let round = 0; round < 64 && size() > max; round++) {
    const longest = longestString(data);
    if (longest < 2) break;
    data = withinLongest(data, longest);
  }
  const out: BodyValues = { ...values };
  if ('metadata' in values) out.metadata = data.metadata;
  if ('content' in values) out.content = data.content;
  return out;
}

function longestString(value: unknown): number {
  if (typeof value === 'string') return value.length;
  if (value && typeof value === 'object')
    return Math.max(0, ...Object.values(value).map(longestString));
  return 0;
}

/** `value` with every string of `length` units cut to half of it. */
function withinLongest<T>(value: T, length: number): T {
  const cut = (v: unknown): unknown => {
    if (typeof v === 'string') return v.length === length ? cutString(v, length >> 1) : v;
    if (Array.isArray(v)) return v.map(cut);
    if (v && typeof v === 'object')
      return Object.fromEntries(Object.entries(v).map(([k, inner]) => [k, cut(inner)]));
    return v;
  };
  return cut(value) as T;
}
