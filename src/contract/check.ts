import type { ContractClient } from './client.ts';
import type { ContractData } from './data.ts';
import type { RunData } from './target/run-data.ts';
import type { Target } from './target/target.ts';
import type { Skip } from './failure.ts';

export { CheckFailure, CheckSkipped, ensure } from './failure.ts';

/**
 * `spec`: follows from the spec's text and relies on nothing but stated clauses and paths;
 * `profile`: follows from a decision recorded in docs/spec-gaps.md (names, paths, statuses).
 */
export type CheckLevel = 'spec' | 'profile';

/** What a check needs beyond a key with every permission. */
export type Requirement = 'destructive' | 'readonlyKey' | 'otherAccountKey' | 'inactiveKey';

/** The keys the suite was given. */
export interface ContractKeys {
  full: string;
  readonly?: string | undefined;
  otherAccount?: string | undefined;
  inactive?: string | undefined;
}

/** What a check runs with. */
export interface CheckContext {
  /** The target as its description says it works: what spec checks talk to. */
  target: Target;
  /** What the run created through the target (destructive runs). */
  run: RunData;
  /** Requests by our openapi.yaml's paths, validated against it: what profile checks use. */
  http: ContractClient;
  keys: ContractKeys;
  /** Data the checks share: created in this run (destructive) or discovered (read-only). */
  data: ContractData;
  destructive: boolean;
  specOnly: boolean;
  /** Ends the check as skipped, with the reason. */
  skip: Skip;
}

/** One check of the contract suite: a rule of the API, proven over HTTP against any target. */
export interface ContractCheck {
  /** Stable id, e.g. `auth.missing-key`. */
  id: string;
  /** What the check proves, as a sentence in the present tense. */
  title: string;
  /** The clause ids of docs/spec-gaps.md this check proves. */
  clauses: string[];
  level: CheckLevel;
  needs?: Requirement[];
  run(context: CheckContext): Promise<void>;
}

/** Declares a check (identity function, for type inference and one place to find them). */
export function defineCheck(check: ContractCheck): ContractCheck {
  return check;
}

/** The advice to run with --destructive, where it would help: never inside a destructive run. */
export function destructiveHint(context: { destructive: boolean }): string {
  return context.destructive ? '' : ' (run with --destructive)';
}
