/** What `explore` compares and records: a step's record, a divergence, coverage, and how values are compared. */
import type { ContractResponse } from '../client.ts';
import type { BodyValues, Target } from '../target-api/target.ts';
import type { UpdateStyle } from '../target-api/description.ts';
import type { ClauseId } from '../../generated/clauses.ts';

/** A value as each update style leaves it (updates.ts). */
export type ByStyle = Record<UpdateStyle, unknown>;

/** What one step did on both sides, as a story prints it. */
export interface StepRecord {
  request: string;
  model: string;
  target: string;
}

/** A key the run was given: each step presents one. */
export type KeyName = 'full' | 'readonly' | 'otherAccount' | 'inactive';

/**
 * The clause a step is judged by for `key`: an inactive key's refusal is ERR-401-2, a read-only
 * key's write is ERR-401-5 (a key without permission), whatever the operation's own clause.
 */
export function keyClause(key: KeyName | null, writes: boolean, clause: ClauseId): ClauseId {
  if (key === 'inactive') return 'ERR-401-2';
  if (key === 'readonly' && writes) return 'ERR-401-5';
  return clause;
}

/** A step whose answers disagree on something the spec states. */
export class Divergence extends Error {
  override name = 'Divergence';
  /**
   * The steps of the sequence it ended, set as it leaves the sequence: the story fast-check's
   * counterexample tells, carried by the error fast-check reports (`errorInstance`).
   */
  records: StepRecord[] = [];
  constructor(
    readonly clause: ClauseId,
    readonly detail: string,
    readonly step: StepRecord,
  ) {
    super(`${clause}: ${detail}`);
  }
}

/** The divergence a fast-check run failed on, if it failed on one. */
export function divergenceOf(details: {
  failed: boolean;
  errorInstance?: unknown;
}): Divergence | undefined {
  return details.failed && details.errorInstance instanceof Divergence
    ? details.errorInstance
    : undefined;
}

/**
 * A large body the target refused as too large (413) where the model took it: the target's own
 * size limit (the spec states none), which its description did not say. Not a divergence: the
 * sequence ends there, and the report says how to state the limit.
 */
export class TooLarge extends Error {
  override name = 'TooLarge';
  constructor(readonly bytes: number) {
    super(`the target refused a body of about ${bytes} bytes as too large (413)`);
  }
}

/** A resource created on both sides. */
export interface Pair {
  target: string;
  model: string;
  key: KeyName;
}

export interface CollectionPair extends Pair {
  deleted: boolean;
  /**
   * The metadata as each update style leaves it (updates.ts): the spec states no update, so a
   * target replaces, merges or merge-patches as its description says (or any of them).
   */
  metadata: ByStyle;
}

export interface ObjectPair extends Pair {
  collection: CollectionPair;
  word: number;
  /** The content as sent, by each update style (the last replace resets every one). */
  content: ByStyle;
  /** Contents the object held before (replaced or updated): what a stale read would show. */
  earlier: unknown[];
  deleted: boolean;
  /** A get showed every system field: one lacking later is lost (OBJ-GET-1), not never added. */
  complete?: boolean;
}

export type Sent = ContractResponse & { method: string; path: string };

type Side = 'target' | 'model';

/** How a step sends one operation to both sides: what differs by side is a function of it. */
export interface SendBoth {
  params?: (side: Side) => Record<string, unknown>;
  body?: (side: Side) => BodyValues;
  /** A body sent exactly as given, to both. */
  raw?: string;
  query?: (side: Side) => Record<string, string>;
  /** Credential headers of the step's own making (with a `null` key). */
  headers?: (side: Side) => Record<string, string>;
}

/** The keys a run was given, by name. */
export type Keys = Partial<Record<KeyName, string>> & { full: string };

/** Counts of what the exploration reached: operations, clauses, statuses. */
export class Coverage {
  readonly operations = new Map<string, number>();
  readonly clauses = new Map<string, number>();
  readonly statuses = new Map<number, number>();

  count(map: Map<string | number, number>, what: string | number): void {
    map.set(what, (map.get(what) ?? 0) + 1);
  }
}

export const ok = (status: number) => status >= 200 && status < 300;
export const short = (value: unknown) => {
  const text = JSON.stringify(value) ?? 'undefined';
  return text.length > 120 ? `${text.slice(0, 120)}…` : text;
};

/**
 * Whether an object as a target answers it holds the content as sent: whole under one field
 * (`content` in our document, `body` or `data` elsewhere: descriptions do not name it), or as the
 * object's own fields (a target that keeps user data beside the system fields).
 */
export function holdsContent(object: unknown, content: unknown, target?: Target): boolean {
  const same = (a: unknown, b: unknown) =>
    JSON.stringify(canonical(a)) === JSON.stringify(canonical(b));
  // @note Where the description says the content lives, there and nowhere else.
  const at = target?.contentAt(object);
  if (at) return same(at.content, content);
  if (!object || typeof object !== 'object') return false;
  const record = object as Record<string, unknown>;
  if (Object.values(record).some((value) => same(value, content))) return true;
  return Object.entries(content as Record<string, unknown>).every(([k, v]) => same(record[k], v));
}

/** A JSON value with object keys sorted, for comparing what was sent with what came back. */
export function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value && typeof value === 'object')
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((key) => [key, canonical((value as Record<string, unknown>)[key])]),
    );
  return value;
}
