/** The sizes a target declares it refuses past (`limits` in its description): explore stays within them. */
import type { Limits } from '../target-api/description.ts';
import type { BodyValues } from '../target-api/target.ts';
import type { LimitMet, Measure } from './comparison.ts';

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
const LARGE_BODY_BYTES = 16 * 1024;

/** The bytes of the run's values as JSON: about what a body template makes of them. */
function bodyBytes(values: BodyValues | undefined): number {
  return values === undefined ? 0 : Buffer.byteLength(JSON.stringify(values)) + TEMPLATE_SLACK;
}

/** What the body templates wrap around the run's values, at most (names of fields, braces). */
const TEMPLATE_SLACK = 512;

/**
 * The run's values of one request within every limit, declared or learned: strings cut to
 * `limits.string`, values nested no deeper than `limits.depth`, arrays cut to
 * `limits.arrayLength`, metadata to its first `limits.metadataKeys` keys and to
 * `limits.metadataBytes`, content to `limits.contentBytes`, and the longest strings halved until
 * the values fit `limits.body` bytes of JSON. The same on both sides, and what the pairs remember.
 */
export function fit(values: BodyValues | undefined, limits: Limits): BodyValues | undefined {
  if (values === undefined) return values;
  // @note Only what the run makes up: a name or a query is the run's own, never cut.
  let data = withinLimits({ metadata: values.metadata, content: values.content }, limits.string);
  data = {
    metadata: shaped(data.metadata, limits),
    content: shaped(data.content, limits),
  };
  if (limits.metadataKeys !== undefined && data.metadata)
    data = {
      ...data,
      metadata: Object.fromEntries(Object.entries(data.metadata).slice(0, limits.metadataKeys)),
    };
  if (limits.metadataBytes !== undefined && data.metadata)
    data = { ...data, metadata: withinBytes(data.metadata, limits.metadataBytes, true) };
  if (limits.contentBytes !== undefined && data.content !== undefined)
    data = { ...data, content: withinBytes(data.content, limits.contentBytes, false) };
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

/** `value` nested no deeper than `limits.depth` and with no array longer than `limits.arrayLength`. */
function shaped<T>(value: T, limits: Limits): T {
  const { depth, arrayLength } = limits;
  if (depth === undefined && arrayLength === undefined) return value;
  const cut = (v: unknown, level: number): unknown => {
    if (v === null || typeof v !== 'object') return v;
    // @note A value that would nest one level too deep is kept as text of its own.
    if (depth !== undefined && level > depth) return 'nested';
    if (Array.isArray(v))
      return v.slice(0, arrayLength ?? v.length).map((inner) => cut(inner, level + 1));
    return Object.fromEntries(Object.entries(v).map(([k, inner]) => [k, cut(inner, level + 1)]));
  };
  return cut(value, 1) as T;
}

/** `value` within `max` bytes of JSON: its last keys left out (`dropKeys`), then its longest strings halved. */
function withinBytes<T>(value: T, max: number, dropKeys: boolean): T {
  const bytes = (v: unknown) => Buffer.byteLength(JSON.stringify(v) ?? '');
  let out = value;
  if (dropKeys && out && typeof out === 'object' && !Array.isArray(out)) {
    const entries = Object.entries(out);
    while (entries.length > 1 && bytes(Object.fromEntries(entries)) > max) entries.pop();
    out = Object.fromEntries(entries) as T;
  }
  for (let round = 0; round < 64 && bytes(out) > max; round++) {
    const longest = longestString(out);
    if (longest < 2) break;
    out = withinLongest(out, longest);
  }
  return out;
}

/**
 * What a body measures, for each limit a target may hold it to that the spec does not state
 * (§8): a clean refusal of a body past what the target took before is that limit, not a
 * divergence ({@link LimitsLearned}).
 */
const MEASURES: readonly (Measure & keyof Limits)[] = [
  'body',
  'string',
  'depth',
  'arrayLength',
  'metadataKeys',
  'metadataBytes',
  'contentBytes',
];

/**
 * What every deployment takes, whatever its limits: a refusal of a body within all of these is
 * never a limit, always judged. (A depth of 3, a string of 64 characters, 8 keys, 256 bytes of
 * metadata or content, 16 KiB of body.)
 */
const FLOOR: Record<Measure, number> = {
  body: LARGE_BODY_BYTES,
  string: 64,
  depth: 3,
  arrayLength: 8,
  metadataKeys: 8,
  metadataBytes: 256,
  contentBytes: 256,
};

/** The measures of the run's values of one request. */
export function measure(values: BodyValues): Record<Measure, number> {
  const json = (v: unknown) => (v === undefined ? 0 : Buffer.byteLength(JSON.stringify(v)));
  const data = [values.metadata, values.content];
  return {
    body: bodyBytes(values),
    string: Math.max(0, ...data.map(longestString)),
    depth: Math.max(0, ...data.map(depthOf)),
    arrayLength: Math.max(0, ...data.map(longestArray)),
    metadataKeys: values.metadata ? Object.keys(values.metadata).length : 0,
    metadataBytes: json(values.metadata),
    contentBytes: json(values.content),
  };
}

/** How deep a value nests: 0 for a scalar, 1 for an object or array of scalars. */
function depthOf(value: unknown): number {
  if (value === null || typeof value !== 'object') return 0;
  return 1 + Math.max(0, ...Object.values(value).map(depthOf));
}

function longestArray(value: unknown): number {
  if (value === null || typeof value !== 'object') return 0;
  const inner = Math.max(0, ...Object.values(value).map(longestArray));
  return Math.max(Array.isArray(value) ? value.length : 0, inner);
}

/** A write refused cleanly at a limit the description does not state: the sequence ends there, not judged. */
export class AtLimit extends Error {
  override name = 'AtLimit';
  constructor(
    readonly status: number,
    readonly past: ReadonlyArray<{ measure: Measure; value: number }>,
  ) {
    super(
      `the target refused (${status}) a body past what it took before: ${past.map(({ measure, value }) => `${measure} ${value}`).join(', ')}`,
    );
  }
}

/**
 * The limits a run learns from what the target takes and refuses (the spec states none, §8): a
 * write refused cleanly (400, 413 or 422) where the model took it, whose body measures past what
 * the target took before and past what every deployment takes (the floor), is a limit of the
 * target, not a divergence. The run keeps within it from then on (below the smallest refused
 * value) and reports it once, with the line that declares it.
 */
export class LimitsLearned {
  readonly #taken = new Map<Measure, number>();
  readonly #refused = new Map<Measure, { smallest: number; count: number; alongWith: Measure[] }>();

  /** A body the target took: nothing it measured is a limit. */
  took(values: BodyValues): void {
    const measured = measure(values);
    for (const name of MEASURES)
      this.#taken.set(name, Math.max(this.#taken.get(name) ?? 0, measured[name]));
  }

  /** The measures of a refused body past what was taken and past the floor: none, a divergence. */
  refused(values: BodyValues, status: number): AtLimit | undefined {
    const measured = measure(values);
    const past = MEASURES.filter(
      (name) => measured[name] > FLOOR[name] && measured[name] > (this.#taken.get(name) ?? 0),
    ).map((name) => ({ measure: name, value: measured[name] }));
    if (past.length === 0) return undefined;
    for (const { measure: name, value } of past) {
      const seen = this.#refused.get(name);
      const smaller = seen === undefined || value < seen.smallest;
      this.#refused.set(name, {
        smallest: smaller ? value : seen.smallest,
        count: (seen?.count ?? 0) + 1,
        alongWith: smaller
          ? past.map((other) => other.measure).filter((other) => other !== name)
          : seen.alongWith,
      });
    }
    return new AtLimit(status, past);
  }

  /** The declared limits, each measure refused kept below its smallest refused value. */
  within(declared: Limits): Limits {
    const out: Limits = { ...declared };
    for (const [name, { smallest }] of this.#refused)
      out[name] = Math.min(declared[name] ?? Infinity, Math.max(FLOOR[name], smallest - 1));
    return out;
  }

  /** What the run met, for the report. */
  met(): LimitMet[] {
    return [...this.#refused].map(([name, { smallest, count, alongWith }]) => ({
      measure: name,
      smallest,
      largestTaken: this.#taken.get(name) ?? 0,
      count,
      ...(alongWith.length > 0 ? { alongWith } : {}),
      // @note What the target took is known to pass; the limit lies from there to the smallest
      // refused value.
      declare: `limits: { ${name}: ${this.#taken.get(name) ?? 0} }`,
    }));
  }
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
