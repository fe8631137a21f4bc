import {
  CheckFailure,
  CheckSkipped,
  type CheckContext,
  type ContractCheck,
  type Requirement,
} from './check.ts';
import { CannotCreate, Interrupted, TargetStalled } from './failure.ts';
import { Divergence, uphold } from './judges/verdict.ts';
import { clausesOfCheck } from './judges/index.ts';
import type { Pushback } from './client.ts';
import { conformanceMatrix } from './matrix.ts';
import { Settle, windowsOf, type SettleReport } from './settle.ts';
import type { CheckResult, ClauseResult, Outcome } from './result.ts';
import { RunData } from './runner/run-data.ts';
import { Run, RunEnded, TargetError, type RunKeys, type RunSettings } from './runner/run.ts';
import { schedule } from './schedule.ts';
import { nothingJudged, runVerdict, type NothingJudged, type RunVerdict } from './run-verdict.ts';

export { RunEnded, TargetError };

/** Options of {@link runContract}. */
export interface RunOptions extends RunSettings {
  keys: RunKeys;
  checks: ContractCheck[];
  destructive?: boolean | undefined;
  /**
   * `spec` (default): the spec checks, judged by the spec and the description; `profile`: they are
   * held to our openapi.yaml too, and the profile checks run.
   */
  level?: Level | undefined;
  /** How long a read after a write may take to show it, in ms (default 0: at once). */
  settleMs?: number | undefined;
  /** Any skip among the checks that decide the exit status fails the run. */
  failOnSkip?: boolean | undefined;
  /** The target's name in reports when `baseUrl` is a proxy in front of it (`--via-prism`). */
  targetUrl?: string | undefined;
  /** Called after each check, for progress output. */
  onResult?: ((result: CheckResult) => void) | undefined;
}

/** Which results decide the exit status. */
export type Level = 'spec' | 'profile';

export type { CheckResult } from './result.ts';

export interface ContractReport {
  /** The target (not a proxy in front of it). */
  baseUrl: string;
  /** The proxy the traffic went through, if any. */
  via?: string | undefined;
  /** Where the target description came from. */
  description: string;
  level: Level;
  runId: string;
  destructive: boolean;
  startedAt: string;
  durationMs: number;
  results: CheckResult[];
  /** Set when a signal ended the run early: which signal, and the checks it left unjudged. */
  interrupted?: { signal: string; notJudged: string[] } | undefined;
  matrix: ClauseResult[];
  /** Data of this run still visible after its clean-up (empty on a clean run). */
  leftBehind: string[];
  /** Checks of the suite that did not run at this level, and why: not results, not skips. */
  notRun: { checks: string[]; reason: string } | undefined;
  counts: Record<Outcome, number>;
  /** Counts of the checks at each level. */
  levels: Record<'spec' | 'profile', Record<Outcome, number>>;
  /** Answers that asked the suite to wait (429, 503 with Retry-After). */
  pushback: Pushback;
  /** Reads after writes that had to wait for them (`--settle`). */
  settle: SettleReport;
  /** URLs of other origins the target led the suite to; none was sent a key. */
  foreignUrls: string[];
  concurrency: number;
  /** Requests the run sent (retries after a Retry-After included). */
  requests: number;
  /** Failure reasons shared by more than one check, with the checks they affected. */
  sharedCauses: Array<{ reason: string; checks: string[] }>;
  /**
   * The run's verdict (`runVerdict`): `passed` only when a check passed, none failed, nothing was
   * left behind, and (with failOnSkip) none skipped; `nothing judged` when no check passed and
   * none failed.
   */
  verdict: RunVerdict;
  /** What stopped a run that judged nothing, named: options not given, operations not offered. */
  nothingJudged?: NothingJudged | undefined;
  /** Whether the run did not pass: its verdict is not `passed`. */
  failed: boolean;
}

/** The option that meets each requirement, and the reason a check skips without it. */
const REQUIREMENTS: Record<Requirement, { option: string; reason: string }> = {
  destructive: { option: '--destructive', reason: 'changes data: needs --destructive' },
  readonlyKey: { option: '--readonly-key', reason: 'needs --readonly-key' },
  otherAccountKey: { option: '--other-account-key', reason: 'needs --other-account-key' },
  inactiveKey: { option: '--inactive-key', reason: 'needs --inactive-key' },
};

/** The requirements of a check the run's options do not meet. */
function unmet(check: ContractCheck, options: RunOptions): Requirement[] {
  const given: Record<Requirement, unknown> = {
    destructive: options.destructive,
    readonlyKey: options.keys.readonly,
    otherAccountKey: options.keys.otherAccount,
    inactiveKey: options.keys.inactive,
  };
  return (check.needs ?? []).filter((need) => !given[need]);
}

/**
 * Runs the contract suite against a target, `concurrency` checks at once (those that walk whole
 * lists alone), and reports every check and
 * every clause. Data created with `destructive` is deleted at the end, also after failures.
 */
export async function runContract(options: RunOptions): Promise<ContractReport> {
  const destructive = options.destructive ?? false;
  const level = options.level ?? 'spec';
  const profile = level === 'profile';
  // @note The suite cleans up once, at its end, through the target's own client.
  const session = new Run({ ...options, profile }, 'shared');
  const { http, target, description, concurrency, started } = session;
  const runId = session.id;
  // @note What the list shows before a destructive run writes is someone else's (RunData.claim).
  const run = new RunData(target, runId, destructive ? await session.readBefore() : undefined);
  const settle = new Settle(windowsOf(description.consistency, options.settleMs));
  // @note At the spec level the profile checks, which judge our document's decisions, do not
  // run at all: a target that never adopted our document is not shown their failures.
  const checks = profile ? options.checks : options.checks.filter((c) => c.level === 'spec');
  const skipped = options.checks.filter((check) => !checks.includes(check));
  const results: CheckResult[] = [];
  const notJudged: string[] = [];
  let ended: { error: unknown } | undefined;
  // @note Until the clean-up is done, a sweep on this machine leaves the run's data alone.
  session.begin();
  try {
    await session.preflight(destructive ? run : undefined);
    const shared = { target, run, destructive, profile, settle };
    await schedule(checks, concurrency, async (check) => {
      // @note After an interruption no check starts; one in flight ends at its next request.
      if (http.stopped) return void notJudged.push(check.id);
      const result = await runCheck(check, options, shared);
      if (result === undefined) return void notJudged.push(check.id);
      results.push(result);
      options.onResult?.(result);
    });
  } catch (error) {
    ended = { error };
  } finally {
    // @note A signal that comes while the clean-up runs does not cut it short.
    const stopped = http.stopped;
    session.cleaningUp(stopped);
    try {
      session.leave(await run.cleanup(options.keys, stopped ? new Settle(0) : settle));
    } finally {
      // @note A target that stalled ends the run whatever the check that met it made of it.
      await session.end();
    }
  }
  const { leftBehind } = session;
  const interrupted = options.signal?.aborted
    ? { signal: String(options.signal.reason), notJudged }
    : undefined;
  if (ended && !(ended.error instanceof Interrupted))
    throw new RunEnded(ended.error, runId, leftBehind);
  results.sort(
    (a, b) => checks.findIndex((c) => c.id === a.id) - checks.findIndex((c) => c.id === b.id),
  );
  const tally = (list: CheckResult[]) => {
    const counts = { pass: 0, fail: 0, skip: 0 };
    for (const result of list) counts[result.outcome] += 1;
    return counts;
  };
  const counted = tally(results);
  const verdict = runVerdict({
    results,
    leftBehind,
    interrupted: interrupted !== undefined,
    failOnSkip: options.failOnSkip === true,
  });
  return {
    baseUrl: options.targetUrl ?? options.directUrl ?? options.baseUrl,
    via: options.directUrl ? options.baseUrl : undefined,
    description: description.source,
    level,
    runId,
    destructive,
    startedAt: new Date(started).toISOString(),
    durationMs: Date.now() - started,
    results,
    matrix: conformanceMatrix(results, level),
    leftBehind,
    interrupted,
    notRun:
      skipped.length > 0
        ? {
            checks: skipped.map((check) => check.id),
            reason: "profile checks judge our openapi.yaml's decisions: --level profile runs them",
          }
        : undefined,
    counts: counted,
    levels: {
      spec: tally(results.filter((r) => r.level === 'spec')),
      profile: tally(results.filter((r) => r.level === 'profile')),
    },
    sharedCauses: sharedCauses(results),
    pushback: http.pushback,
    settle: settle.report,
    foreignUrls: [...new Set(http.foreignRequests)],
    concurrency,
    requests: http.exchanges.length + http.pushback.waits,
    verdict,
    nothingJudged: verdict === 'nothing judged' ? nothingJudged(results) : undefined,
    failed: verdict !== 'passed',
  };
}

/** Failure reasons that more than one check gave: one cause, reported once. */
function sharedCauses(results: CheckResult[]): Array<{ reason: string; checks: string[] }> {
  const byReason = new Map<string, string[]>();
  for (const result of results) {
    if (result.outcome !== 'fail' || !result.reason) continue;
    const reason = result.reason.replace(/^preparing the shared data: /, '');
    byReason.set(reason, [...(byReason.get(reason) ?? []), result.id]);
  }
  return [...byReason]
    .filter(([, checks]) => checks.length > 1)
    .map(([reason, checks]) => ({ reason, checks }));
}

async function runCheck(
  check: ContractCheck,
  options: RunOptions,
  shared: Omit<CheckContext, 'keys' | 'skip' | 'judged'>,
): Promise<CheckResult | undefined> {
  const named = clausesOfCheck(check.id);
  const clauses = [
    ...named.spec,
    ...(shared.profile ? named.profile : []),
    ...(check.clauses ?? []),
  ];
  const base = { id: check.id, title: check.title, level: check.level, clauses };
  const started = performance.now();
  const done = (outcome: Outcome, reason?: string, lacked?: string[]): CheckResult => ({
    ...base,
    outcome,
    reason,
    ...(lacked ? { lacked } : {}),
    durationMs: Math.round(performance.now() - started),
  });
  const missing = unmet(check, options);
  if (missing.length > 0)
    return done(
      'skip',
      REQUIREMENTS[missing[0]!].reason,
      missing.map((need) => REQUIREMENTS[need].option),
    );
  // @note Nothing is sent for an operation the description does not have.
  const absent = (check.uses ?? []).filter((operation) => !shared.target.offers(operation));
  if (absent.length > 0) return done('skip', shared.target.missing(absent[0]!), absent);
  const first = await attempt(check, { ...shared, keys: options.keys }, done);
  // @note A destructive run whose description cannot create the check's data (nothing was
  // sent) judges it as a read-only run would, on existing data: --destructive adds checks, it
  // never turns one that passes read-only into a skip. A check that only --destructive runs
  // has no read-only way.
  if (!(first instanceof CannotCreate)) return first;
  if (check.needs?.includes('destructive')) return done('skip', first.message, [first.operation]);
  const again = await attempt(
    check,
    { ...shared, keys: options.keys, destructive: false, readOnlyBecause: first.message },
    done,
  );
  if (again instanceof CannotCreate) return done('skip', again.message, [again.operation]);
  if (again === undefined) return undefined;
  if (again.outcome !== 'skip') return { ...again, readOnly: first.message };
  return {
    ...again,
    reason: `${again.reason}; judged read-only, as --destructive ${first.message}`,
    lacked: [...(again.lacked ?? []), first.operation],
  };
}

/**
 * One run of a check with `shared`: its result, undefined when an interruption cut it short, or
 * the `CannotCreate` that stopped it before it sent a write.
 */
async function attempt(
  check: ContractCheck,
  shared: Omit<CheckContext, 'skip' | 'judged'>,
  done: (outcome: Outcome, reason?: string, lacked?: string[]) => CheckResult,
): Promise<CheckResult | CannotCreate | undefined> {
  /** The verdicts of the check's judges: how many could have failed, and why the rest could not. */
  let judged = 0;
  const unjudged = new Set<string>();
  const context: CheckContext = {
    ...shared,
    skip(reason) {
      throw new CheckSkipped(reason);
    },
    judged(verdict) {
      if (verdict.outcome === 'notJudged') unjudged.add(`${verdict.clause}: ${verdict.reason}`);
      else judged += 1;
      uphold(verdict);
    },
  };
  try {
    await check.run(context);
    // @note Nothing judged is not a pass: every verdict its judges gave could not have failed.
    if (judged === 0 && unjudged.size > 0) return done('skip', [...unjudged].join('; '));
    return done('pass');
  } catch (error) {
    // @note A check the interruption cut short was not judged: neither passed nor failed.
    if (error instanceof Interrupted || error instanceof TargetStalled) return undefined;
    if (error instanceof CannotCreate && shared.destructive) return error;
    if (error instanceof CheckSkipped) return done('skip', error.message);
    if (error instanceof Divergence)
      return {
        ...done('fail', error.detail),
        broken: error.clause,
        ...(error.difference ? { difference: error.difference } : {}),
      };
    if (error instanceof CheckFailure) return done('fail', error.message);
    return done('fail', `the check itself failed: ${(error as Error).stack ?? String(error)}`);
  }
}
