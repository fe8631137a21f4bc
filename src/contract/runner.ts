import { CLAUSES } from '../generated/clauses.ts';
import {
  CheckFailure,
  CheckSkipped,
  type CheckContext,
  type ContractCheck,
  type ContractKeys,
  type Requirement,
} from './check.ts';
import { ContractClient } from './client.ts';
import { ContractData } from './data.ts';
import { NOT_TESTABLE } from './not-testable.ts';

/** Options of {@link runContract}. */
export interface RunOptions {
  /** The API root including its prefix, e.g. `http://127.0.0.1:4010/api/answers/v1`. */
  baseUrl: string;
  keys: ContractKeys;
  checks: ContractCheck[];
  destructive?: boolean | undefined;
  specOnly?: boolean | undefined;
  /** Where requests with crafted or missing credentials go (see ContractClient). */
  directUrl?: string | undefined;
  /** Called after each check, for progress output. */
  onResult?: ((result: CheckResult) => void) | undefined;
}

export type Outcome = 'pass' | 'fail' | 'skip';

export interface CheckResult {
  id: string;
  title: string;
  level: 'spec' | 'profile';
  clauses: string[];
  outcome: Outcome;
  /** Why it failed or was skipped. */
  reason?: string | undefined;
  durationMs: number;
}

export interface ClauseResult {
  id: string;
  kind: 'stated' | 'decided';
  text: string;
  outcome: Outcome | 'not testable';
  /** The checks that prove it, or why none does. */
  detail: string;
}

export interface ContractReport {
  baseUrl: string;
  runId: string;
  destructive: boolean;
  specOnly: boolean;
  startedAt: string;
  durationMs: number;
  results: CheckResult[];
  matrix: ClauseResult[];
  /** Data this run created and could not delete (empty on a clean run). */
  leftBehind: string[];
  counts: Record<Outcome, number>;
}

/** The target could not be used at all (unreachable, or the full key refused): exit status 2. */
export class TargetError extends Error {
  override name = 'TargetError';
}

const REQUIREMENT_REASONS: Record<Requirement, string> = {
  destructive: 'changes data: run with --destructive',
  readonlyKey: 'needs --readonly-key',
  otherAccountKey: 'needs --other-account-key',
  inactiveKey: 'needs --inactive-key',
};

function unmet(check: ContractCheck, options: RunOptions): string | undefined {
  for (const need of check.needs ?? []) {
    if (need === 'destructive' && !options.destructive) return REQUIREMENT_REASONS[need];
    if (need === 'readonlyKey' && !options.keys.readonly) return REQUIREMENT_REASONS[need];
    if (need === 'otherAccountKey' && !options.keys.otherAccount) return REQUIREMENT_REASONS[need];
    if (need === 'inactiveKey' && !options.keys.inactive) return REQUIREMENT_REASONS[need];
  }
  return undefined;
}

/** Checks that the target answers and accepts the full key, before any check runs. */
async function preflight(http: ContractClient): Promise<void> {
  let status: number;
  try {
    status = (await http.request('GET', '/collections?limit=1')).status;
  } catch (error) {
    throw new TargetError(`cannot reach ${http.baseUrl}: ${(error as Error).message}`);
  }
  if (status === 401 || status === 403)
    throw new TargetError(`the target refuses --api-key (GET /collections answered ${status})`);
  if (status === 404)
    throw new TargetError(
      `GET ${http.baseUrl}/collections answered 404: is --base-url the API root (e.g. …/api/answers/v1)?`,
    );
}

/**
 * Runs the contract suite against a target, one check at a time, and reports every check and
 * every clause. Data created with `destructive` is deleted at the end, also after failures.
 */
export async function runContract(options: RunOptions): Promise<ContractReport> {
  const started = Date.now();
  const runId = `${started.toString(36)}${Math.floor(Math.random() * 36 ** 4)
    .toString(36)
    .padStart(4, '0')}`;
  const specOnly = options.specOnly ?? false;
  const destructive = options.destructive ?? false;
  const http = new ContractClient(options.baseUrl, options.keys.full, !specOnly, options.directUrl);
  await preflight(http);
  const data = new ContractData(http, runId, destructive);
  const results: CheckResult[] = [];
  let leftBehind: string[];
  try {
    for (const check of options.checks) {
      const result = await runCheck(check, options, { http, data, destructive, specOnly });
      results.push(result);
      options.onResult?.(result);
    }
  } finally {
    leftBehind = await data.cleanup();
  }
  const counts = { pass: 0, fail: 0, skip: 0 };
  for (const result of results) counts[result.outcome] += 1;
  return {
    baseUrl: options.baseUrl,
    runId,
    destructive,
    specOnly,
    startedAt: new Date(started).toISOString(),
    durationMs: Date.now() - started,
    results,
    matrix: conformanceMatrix(results),
    leftBehind,
    counts,
  };
}

async function runCheck(
  check: ContractCheck,
  options: RunOptions,
  shared: { http: ContractClient; data: ContractData; destructive: boolean; specOnly: boolean },
): Promise<CheckResult> {
  const base = { id: check.id, title: check.title, level: check.level, clauses: check.clauses };
  const started = performance.now();
  const done = (outcome: Outcome, reason?: string): CheckResult => ({
    ...base,
    outcome,
    reason,
    durationMs: Math.round(performance.now() - started),
  });
  if (shared.specOnly && check.level !== 'spec')
    return done('skip', 'a profile check: --spec-only runs spec checks only');
  const missing = unmet(check, options);
  if (missing) return done('skip', missing);
  const context: CheckContext = {
    ...shared,
    keys: options.keys,
    skip(reason) {
      throw new CheckSkipped(reason);
    },
  };
  try {
    await check.run(context);
    return done('pass');
  } catch (error) {
    if (error instanceof CheckSkipped) return done('skip', error.message);
    if (error instanceof CheckFailure) return done('fail', error.message);
    return done('fail', `the check itself failed: ${(error as Error).stack ?? String(error)}`);
  }
}

/** Every clause of docs/spec-gaps.md with the outcome of the checks that prove it. */
export function conformanceMatrix(results: CheckResult[]): ClauseResult[] {
  return CLAUSES.map(({ id, kind, text }) => {
    const proving = results.filter((result) => result.clauses.includes(id));
    if (proving.length === 0) {
      return {
        id,
        kind,
        text,
        outcome: 'not testable',
        detail: NOT_TESTABLE[id] ?? 'no check proves it yet',
      };
    }
    const failed = proving.filter((r) => r.outcome === 'fail');
    const passed = proving.filter((r) => r.outcome === 'pass');
    const outcome: Outcome = failed.length > 0 ? 'fail' : passed.length > 0 ? 'pass' : 'skip';
    const named = (failed.length > 0 ? failed : passed.length > 0 ? passed : proving).map(
      (r) => r.id,
    );
    return { id, kind, text, outcome, detail: named.join(', ') };
  });
}
