/** What `explore` sends and counts: a step's answers on both sides, and the run's coverage. */
import type { ContractResponse } from '../client.ts';
import type { BodyValues } from '../target-api/target.ts';
import { Divergence } from '../judges/verdict.ts';
import type { KeyName } from '../judges/clause-of.ts';

export type { KeyName } from '../judges/clause-of.ts';
export type { StepRecord } from '../judges/verdict.ts';

/** The divergence a fast-check run failed on, if it failed on one. */
export function divergenceOf(details: {
  failed: boolean;
  errorInstance?: unknown;
}): Divergence | undefined {
  return details.failed && details.errorInstance instanceof Divergence
    ? details.errorInstance
    : undefined;
}

/** What a body measures, for each limit a target may hold it to (explore/limits.ts). */
export type Measure =
  'body' | 'string' | 'depth' | 'arrayLength' | 'metadataKeys' | 'metadataBytes' | 'contentBytes';

/** One limit a run met and its description does not state, as the report gives it. */
export interface LimitMet {
  measure: Measure;
  /** The smallest value a refused body had of it. */
  smallest: number;
  /** The largest value the target took. */
  largestTaken: number;
  /**
   * The other measures the refused body with the smallest value went past at once: the target
   * refused it for one of them, which the run cannot tell apart.
   */
  alongWith?: Measure[] | undefined;
  /** Refusals (sequences ended there). */
  count: number;
  /** The description line that states it, at the largest value the target took. */
  declare: string;
}

/** How many words a sequence plants in content, to search for. */
export const WORDS = 3;

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

/**
 * Counts of what the exploration reached: operations, statuses, and each clause judged (a
 * verdict that could have gone either way), with what was not judged and why.
 */
export class Coverage {
  readonly operations = new Map<string, number>();
  readonly clauses = new Map<string, number>();
  readonly statuses = new Map<number, number>();
  /** Clauses met where the evidence could not have shown them broken, by clause and reason. */
  readonly notJudged = new Map<string, Map<string, number>>();

  count(map: Map<string | number, number>, what: string | number): void {
    map.set(what, (map.get(what) ?? 0) + 1);
  }
}
