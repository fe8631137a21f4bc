/**
 * One run of the suite, `explore` or `replay`: how it begins, what it sends through, what it may
 * touch, and how it ends, decided once for all three. Each front-end gathers its evidence its own
 * way on top of it (checks, random sequences, recorded exchanges) and hands it to the judges.
 *
 * A run has the target as its description maps it (a client a signal or the budget stops, held
 * to openapi.yaml at `--level profile`) and a clean-up side (a client of its own, never held to
 * openapi.yaml and never stopped but by the clean-up's deadline; the suite, which cleans up once
 * at its end, shares the target's). It reads what the list showed before it (never its own), keeps
 * a heartbeat so that `sweep` leaves it alone, gathers what it left behind, and ends a run whose
 * target stalled as an error (`RunEnded`, exit 2) whatever the front-end made of the stall.
 */
import { ContractClient, totalPushback, type Pushback } from '../client.ts';
import { startHeartbeat, type Heartbeat } from '../heartbeat.ts';
import { LIMITS } from '../limits.ts';
import { DEFAULT_DESCRIPTION, type TargetDescription } from '../target-api/description.ts';
import { listBeforeRun, type BeforeRun, type RunData } from './run-data.ts';
import { newRunId } from '../target-api/run-name.ts';
import { Target } from '../target-api/target.ts';
import { lookBack } from './leftovers.ts';
import type { Settle } from '../settle.ts';

/** The keys a run was given, by role. */
export interface RunKeys {
  full: string;
  readonly?: string | undefined;
  otherAccount?: string | undefined;
  inactive?: string | undefined;
}

/** What every front-end's run is given (the options of the same names). */
export interface RunSettings {
  /** The API root including its prefix, e.g. `http://127.0.0.1:4010/api/answers/v1`. */
  baseUrl: string;
  keys: RunKeys;
  /** How the target realises what the spec leaves open. Default: our openapi.yaml. */
  description?: TargetDescription | undefined;
  /** `--level profile`: the target's answers are held to our openapi.yaml too. */
  profile?: boolean | undefined;
  /** Where requests with crafted or missing credentials go (see ContractClient). */
  directUrl?: string | undefined;
  /** Requests in flight at once to the target (default 4). */
  concurrency?: number | undefined;
  /**
   * Aborted (with the signal's name as its reason) to interrupt the run: no request is sent
   * after it, and the clean-up runs within `cleanupDeadlineMs`.
   */
  signal?: AbortSignal | undefined;
  /** How long the clean-up after an interruption, or a stall, may take (default 15 s). */
  cleanupDeadlineMs?: number | undefined;
  /**
   * How long one request may take, its whole body read (default 10 s, `LIMITS.requestTimeoutMs`):
   * past it the target stalled, and the run ends (`RunEnded`).
   */
  requestTimeoutMs?: number | undefined;
  /** The longest answer body read (default 8 MiB, `LIMITS.maxBodyBytes`). */
  maxBodyBytes?: number | undefined;
  /** The most items one walk of a list collects (default 20,000, `LIMITS.maxWalkItems`). */
  maxWalkItems?: number | undefined;
}

/** The target could not be used at all (unreachable, or the full key refused): exit status 2. */
export class TargetError extends Error {
  override name = 'TargetError';
}

/**
 * An error that ended a run, with what its clean-up could not delete: the caller prints both.
 */
export class RunEnded extends Error {
  override name = 'RunEnded';
  constructor(
    readonly cause: unknown,
    readonly runId: string,
    readonly leftBehind: string[],
  ) {
    super((cause as Error)?.message ?? String(cause));
  }
}

export class Run {
  readonly started = Date.now();
  /** The run's id: its data is named `answers-contract-<id>-…` (`sweep --run` takes it). */
  readonly id = newRunId(this.started);
  readonly description: TargetDescription;
  readonly keys: RunKeys;
  readonly concurrency: number;
  /** The target's client: stopped by the run's signal (or the front-end's own). */
  readonly http: ContractClient;
  readonly target: Target;
  /** The clean-up's client: the target's own when the run cleans up only at its end. */
  readonly cleanerHttp: ContractClient;
  readonly cleaner: Target;
  /** What the run could not delete, each once, in the order found. */
  readonly leftBehind: string[] = [];
  #heartbeat: Heartbeat | undefined;
  #lookedBack = false;

  constructor(
    readonly settings: RunSettings,
    /** `shared`: the clean-up goes through the target's client (the suite's single clean-up). */
    cleanUp: 'own' | 'shared' = 'own',
  ) {
    this.description = settings.description ?? DEFAULT_DESCRIPTION;
    this.keys = settings.keys;
    this.concurrency = Math.max(1, Math.floor(settings.concurrency ?? 4));
    this.http = this.#client(settings.profile === true);
    this.http.stopOn(settings.signal);
    this.target = new Target(this.description, this.http, settings.profile === true);
    this.cleanerHttp = cleanUp === 'shared' ? this.http : this.#client(false);
    this.cleaner =
      cleanUp === 'shared' ? this.target : new Target(this.description, this.cleanerHttp, false);
  }

  #client(validate: boolean): ContractClient {
    const { settings } = this;
    const client = new ContractClient(
      settings.baseUrl,
      settings.keys.full,
      validate,
      settings.directUrl,
      settings.requestTimeoutMs,
      this.concurrency,
    );
    if (settings.maxBodyBytes) client.maxBodyBytes = settings.maxBodyBytes;
    if (settings.maxWalkItems) client.maxWalkItems = settings.maxWalkItems;
    return client;
  }

  /**
   * Before anything else is sent: the target answers, takes the full key in one of the two stated
   * header forms (the clean-up presents it the same way), and answers at the description's paths.
   * Given the run's data (the suite's destructive run), the key can also create data. Else a
   * `TargetError`.
   */
  async preflight(data?: RunData): Promise<void> {
    await answersAtItsPaths(this.target, this.keys.full);
    this.cleanerHttp.keyHeader = this.http.keyHeader;
    if (data && this.target.offers('createCollection')) {
      const made = await data.main().catch((error: Error) => error);
      if (made instanceof Error && / 40[13] /.test(made.message))
        throw new TargetError(
          `--destructive needs a key that can create data, and --api-key cannot: ${made.message.replace(/^could not create test data with /, '')}`,
        );
    }
  }

  /** Starts the heartbeat: until the run ends, a sweep on this machine leaves its data alone. */
  begin(): this {
    this.#heartbeat ??= startHeartbeat(this.id);
    return this;
  }

  /** Whether a signal interrupted the run. */
  get interrupted(): boolean {
    return this.settings.signal?.aborted === true;
  }

  /** The request the target stalled on, if it did: the run ends there. */
  get stalledBy(): Error | undefined {
    return this.http.stalledBy ?? this.cleanerHttp.stalledBy;
  }

  /** How long the clean-up after an interruption or a stall may take. */
  get deadlineMs(): number {
    return this.settings.cleanupDeadlineMs ?? LIMITS.cleanupDeadlineMs;
  }

  /**
   * Before the clean-up: its requests are no longer given up by a signal; cut short (an
   * interruption, a stall, the budget's end) they get the deadline, not more.
   */
  cleaningUp(cut = this.interrupted || this.stalledBy !== undefined): void {
    this.cleanerHttp.cleaningUp(cut ? this.deadlineMs : undefined);
  }

  /**
   * What the list shows before the run writes, with every key that holds data: someone else's,
   * never the run's (`RunData.claim`).
   */
  readBefore(): Promise<BeforeRun> {
    return listBeforeRun(this.cleaner, [this.keys.full, this.keys.otherAccount]);
  }

  /** Adds what a clean-up could not delete, each once. */
  leave(left: Iterable<string>): void {
    for (const each of left) if (!this.leftBehind.includes(each)) this.leftBehind.push(each);
  }

  /**
   * At the run's end (once, whatever ended it): what the list still shows named by this run,
   * once `settle` gave a lagging list its window, is left behind. Within the clean-up's deadline.
   */
  async lookBack(settle: Settle): Promise<void> {
    if (this.#lookedBack) return;
    this.#lookedBack = true;
    this.cleanerHttp.cleaningUp(this.deadlineMs);
    const named = `answers-contract-${this.id}-`;
    const ours = (summary: unknown) =>
      (this.cleaner.nameOf(summary) ?? JSON.stringify(summary ?? null)).includes(named);
    const holders = [this.keys.full, this.keys.otherAccount].filter(
      (key): key is string => key !== undefined,
    );
    this.leave(await lookBack(this.cleaner, holders, ours, settle));
  }

  /**
   * Ends the run: the heartbeat stops; a target that stalled (and no signal) ends it as an error,
   * with what it left behind, whatever the front-end made of the stall.
   */
  async end(): Promise<void> {
    await this.#heartbeat?.stop();
    const stall = this.stalledBy;
    if (stall && !this.interrupted) throw new RunEnded(stall, this.id, this.leftBehind);
  }

  /** Every request sent to the target, each attempt counted, the clean-up's included. */
  get sentToTarget(): number {
    return this.#clients().reduce((sum, client) => sum + client.sent, 0);
  }

  /** How the target pushed back, over the run's clients. */
  get pushback(): Pushback {
    return totalPushback(this.#clients());
  }

  #clients(): ContractClient[] {
    return this.cleanerHttp === this.http ? [this.http] : [this.http, this.cleanerHttp];
  }
}

/**
 * Throws a `TargetError` when the target cannot be used at all: unreachable, the full key refused
 * in both stated header forms, or nothing at the description's list path (404 or 405 in both:
 * a server that did not adopt the description, or a wrong --base-url). The suite, explore and replay
 * ask it before they send anything else (`Run.preflight`).
 */
async function answersAtItsPaths(target: Target, fullKey: string): Promise<void> {
  if (!target.offers('listCollections')) return;
  const statuses: number[] = [];
  const forms: Array<Record<string, string>> = [
    { authorization: `Bearer ${fullKey}` },
    { 'x-answers-api-key': fullKey },
  ];
  for (const headers of forms) {
    try {
      // @note Not validated: whether the target is reachable is no check of its answers.
      const { method, path } = target.route('listCollections');
      statuses.push((await target.http.request(method, path, { key: null, headers })).status);
    } catch (error) {
      throw new TargetError(`cannot reach ${target.http.directUrl}: ${(error as Error).message}`);
    }
  }
  const { method, path } = target.route('listCollections');
  const refused = (status: number) => status === 401 || status === 403;
  // @note Only the Bearer form refused: the run goes on with the other stated form, and
  // auth.bearer-accepted reports the refusal (a failed check, not a set-up error).
  if (refused(statuses[0]!) && !refused(statuses[1]!)) target.http.keyHeader = 'x-answers-api-key';
  if (statuses.every(refused))
    throw new TargetError(
      `the target refuses --api-key in both header forms (${method} ${path} answered ${statuses.join(' and ')})`,
    );
  // @note A list path that is not there, or takes no GET, is a description the target did not
  // adopt: every check or exchange after it would fail for that one reason.
  if (statuses.every((status) => status === 404 || status === 405))
    throw new TargetError(
      `${method} ${target.http.directUrl}${path} answered ${[...new Set(statuses)].join(' and ')}: is --base-url right for ${target.description.source}?`,
    );
}
