/**
 * `answers-contract explore`: random sequences of the operations the target description offers,
 * each step sent to the target and to the kit's own mock (the model, started empty in-process
 * with the same keys), compared on what the spec states. A divergence is shrunk by fast-check to
 * the shortest sequence that still shows it, and printed as a story with a command that replays
 * exactly that sequence. Only with `--destructive`: everything is created under run names and
 * deleted after each sequence, the shrinking replays included.
 */
import * as fc from './fast-check.ts';
import { ContractClient, type Pushback } from '../client.ts';
import { CheckSkipped, Interrupted } from '../failure.ts';
import { Run, type RunSettings } from '../runner/run.ts';
import { DEFAULT_DESCRIPTION, type TargetDescription } from '../target-api/description.ts';
import { Target } from '../target-api/target.ts';
import { WORDS, type KeyName } from './step-kind.ts';
import { runStep, stepArbitrary, type Step } from './steps/index.ts';
import { Coverage, divergenceOf, type Keys, type LimitMet } from './comparison.ts';
import { AtLimit, LimitsLearned } from './limits.ts';
import { Divergence, type StepRecord } from '../judges/verdict.ts';
import type { Difference } from '../judges/difference.ts';
import { World } from './world.ts';
import { Settle, windowsOf, type ReadKind } from '../settle.ts';
import { SHOWN_LATE_IN } from '../judges/clause-of.ts';
import type { ClauseId } from '../../generated/clauses.ts';
import { Gate } from '../runner/gate.ts';
import { CreationClock, spacingOf } from './creation-clock.ts';

/**
 * The model `explore` compares with: the kit's mock, started empty with a key of each kind, on a
 * loopback port, and reset before each sequence. Given by the assembly (the bin, a test), so the
 * contract suite imports no mock.
 */
export interface ExploreModel {
  /** The API root, with its prefix. */
  baseUrl: string;
  keys: Keys;
  /**
   * How to reach it, when it is not the kit's mock (default: the kit's own description). A test
   * may make another correct server the model, e.g. to explore the mock itself.
   */
  description?: TargetDescription | undefined;
  reset(): Promise<void>;
  stop(): Promise<void>;
}

export interface ExploreOptions extends RunSettings {
  keys: Keys;
  /** Starts the model (see {@link ExploreModel}). */
  startModel: () => Promise<ExploreModel>;
  /** The seed of the run: the same seed gives the same sequences. Default: random. */
  seed?: number | undefined;
  /** Stops starting sequences after this long. Default 60 s. */
  budgetMs?: number | undefined;
  /**
   * How long shrinking a divergence may take, after the search found it; what it has shrunk by
   * then is reported (or the sequence as first seen; 0: no shrinking). Default: `budgetMs`.
   */
  shrinkBudgetMs?: number | undefined;
  /** Stops starting sequences after this many requests (both sides counted). Default 20,000. */
  maxRequests?: number | undefined;
  /** The longest sequence. Default 20 steps. */
  maxSteps?: number | undefined;
  /**
   * Requests in flight at once to the target, and sequences side by side (unless `lanes`
   * says otherwise). Default 4.
   */
  concurrency?: number | undefined;
  /**
   * Sequences side by side, each with its own model (default: `concurrency`). 1: one at a time,
   * each finding shown by its seed alone (a proof that must shrink and replay as it showed).
   */
  lanes?: number | undefined;
  /** Waits this long after each write before reading (an eventually consistent target). */
  settleMs?: number | undefined;
  /**
   * `profile`: every target response is validated against our openapi.yaml, statuses and problem
   * codes must be the model's exactly, and odd requests only our document decides are made too.
   * Default `spec`: what the spec states and the description maps.
   */
  level?: 'spec' | 'profile' | undefined;
  /** Replays one sequence: `fast-check`'s path of a counterexample of this seed. */
  replayPath?: string | undefined;
}

/** A divergence shrunk to its shortest sequence, or as first seen when shrinking lost it. */
interface Story {
  clause: string;
  message: string;
  steps: StepRecord[];
  /** The step (0-based) that diverged: a walk's own writes are recorded after it. */
  divergedAt?: number | undefined;
  seed: number;
  path: string;
  /** Where the two values the step compared first part, when it compared two values. */
  difference?: Difference | undefined;
  /** The sequence as first seen: no replay while shrinking showed the divergence again. */
  asFirstSeen?: boolean | undefined;
  /**
   * How many of the replays made within the run (`of`: fewer than `REPLAYS` when the run was
   * interrupted) showed the divergence again: the same clause. They ran under this run's id.
   */
  shownAgain?: { shown: number; of: number } | undefined;
  /**
   * The kind of read that diverged where a write may show late, when the run gave it no window
   * (`consistency`, `--settle`): the story says where a deployment that is late by design states it.
   */
  unwindowed?: ReadKind | undefined;
}

/** How many times a reported sequence is replayed, to say how often it shows its divergence. */
const REPLAYS = 3;

/** fast-check's error of a run that failed other than by a divergence, never `null`. */
function errorOf(details: { errorInstance?: unknown; error?: unknown }): Error {
  const error = details.errorInstance ?? details.error;
  return error instanceof Error ? error : new Error(`explore stopped: ${String(error)}`);
}

export interface ExploreReport {
  seed: number;
  sequences: number;
  requests: number;
  elapsedMs: number;
  story?: Story | undefined;
  coverage: {
    operations: Record<string, number>;
    /**
     * Each clause's judgments that could have failed: the evidence could have shown it broken
     * (what `--min-coverage` counts, and JUnit's test cases).
     */
    clauses: Record<string, number>;
    statuses: Record<string, number>;
    /** Each clause's judgments in all: those that could have failed and those that could not. */
    reached?: Record<string, number> | undefined;
    /** Each clause met where it could not have failed, by why (a judgment not made). */
    notJudged?: Record<string, Record<string, number>> | undefined;
  };
  /**
   * Every request sent to the target: each page of a walk, each read-back and the clean-up's
   * included (`requests` counts steps' requests on both sides, the budget of `--max-requests`).
   */
  sentToTarget?: number | undefined;
  /** Collections the run could not delete, each once. */
  leftBehind: string[];
  /** The run's id: its data is named `answers-contract-<run id>-…` (`sweep --run` takes it). */
  runId: string;
  /** Set when a signal ended the run early. */
  interrupted?: { signal: string } | undefined;
  /**
   * Sequences the budget's end (`--budget`, `--shrink-budget`) stopped while they were still
   * running: their requests were given up and their data cleaned up within the deadline.
   */
  cutShort?: number | undefined;
  /**
   * Limits the target held a write to that its description does not state (the spec states none,
   * §8): each sequence that met one ended there, not judged, and the run kept within it after;
   * each with the smallest refused value and the description line that states it.
   */
  limits?: LimitMet[] | undefined;
  /**
   * Sequences that ended, not judged, at pushback the client does not wait for (a 429 answered
   * again past its retries, or without a Retry-After), with the first one's reason.
   */
  pushedOff?: { count: number; reason?: string | undefined } | undefined;
  /** How the target pushed back (429 or 503 with Retry-After), over every client of the run. */
  pushback?: Pushback | undefined;
}

/** Each clause's judgments in all: those that could have failed, and those that could not. */
function reachedCounts(coverage: Coverage): Record<string, number> {
  const reached = new Map(coverage.clauses);
  for (const [clause, reasons] of coverage.notJudged)
    for (const n of reasons.values()) reached.set(clause, (reached.get(clause) ?? 0) + n);
  return Object.fromEntries(reached);
}

const KEY_NAMES: readonly KeyName[] = ['full', 'readonly', 'otherAccount', 'inactive'];

export async function explore(options: ExploreOptions): Promise<ExploreReport> {
  const seed = options.seed ?? Math.floor(Math.random() * 2 ** 31);
  const budgetMs = options.budgetMs ?? 60_000;
  const maxRequests = options.maxRequests ?? 20_000;
  const profile = options.level === 'profile';
  const run = new Run({ ...options, profile });
  const { target, cleaner, description } = run;
  const interrupted = () => run.interrupted;
  /**
   * Stops the requests of the sequence in flight: aborted by a signal (`options.signal`), or at
   * the budget's end, when fast-check stops waiting for a sequence that is still running.
   */
  function linkedStop(): AbortController {
    const controller = new AbortController();
    const signal = options.signal;
    if (signal?.aborted) controller.abort(signal.reason);
    else signal?.addEventListener('abort', () => controller.abort(signal.reason), { once: true });
    run.http.stopOn(controller.signal);
    return controller;
  }
  let stop = linkedStop();
  /** The sequence running now, if any: fast-check's time limit does not wait for it. */
  let inFlight: Promise<void> | undefined;
  /**
   * At the end of a phase: a sequence the time limit left running is stopped, and its clean-up
   * (within the deadline) is waited for, before anything is reported or another phase starts.
   */
  const finishInFlight = async () => {
    if (!inFlight) return;
    cutShort += 1;
    stop.abort('the budget');
    await inFlight.catch(() => undefined);
    stop = linkedStop();
  };
  // @note Clean-up is never judged, and has a client of its own (run.ts), never stopped by the
  // budget or a signal, only by its deadline: sequences side by side clean up while others run.
  /** The request the target stalled on, if it did: the run ends there (exit 2). */
  const stalled = () => run.http.stalledBy;
  /** Sequences the budget's end stopped in flight. */
  let cutShort = 0;
  // @note As the suite and replay ask before they send anything: a target that does not answer,
  // refuses the key in both forms, or answers nothing at the description's paths is a set-up
  // error (exit 2), not a divergence of every step.
  await run.preflight();
  // @note Sequences run side by side, each with a model of its own (`concurrency` of them,
  // started here and stopped at the end); shrinking and replays use the first.
  const width = Math.max(1, options.lanes ?? options.concurrency ?? 4);
  const models: Array<{ server: ExploreModel; target: Target }> = [];
  const addModel = async () => {
    const server = await options.startModel();
    const client = new ContractClient(server.baseUrl, server.keys.full, false);
    models.push({
      server,
      target: new Target(server.description ?? DEFAULT_DESCRIPTION, client, false),
    });
  };
  await addModel();
  const windows = windowsOf(description.consistency, options.settleMs);
  // @note In a fixed order, whatever the order of `options.keys`: the same seed, the same run.
  const keyNames = KEY_NAMES.filter((name) => options.keys[name]);
  const coverage = new Coverage();
  let sequences = 0;
  let requests = 0;
  /** The limits the target holds writes to, learned by every sequence of the run. */
  const limits = new LimitsLearned();
  /** Sequences ended by pushback the client would not wait for, and the first reason. */
  const pushedOff: { count: number; reason?: string } = { count: 0 };
  /** The request budget ran out: the run ended there, not on a divergence. */
  let spent = false;

  /** The story of a divergence: its sequence's steps, the one that diverged marked. */
  const storyOf = (
    divergence: Divergence | undefined,
    path: string,
    storySeed: number,
  ): Story | undefined =>
    divergence && {
      clause: divergence.clause,
      message: divergence.detail,
      ...(divergence.difference ? { difference: divergence.difference } : {}),
      steps: divergence.records,
      divergedAt: divergence.records.includes(divergence.step)
        ? divergence.records.indexOf(divergence.step)
        : undefined,
      seed: storySeed,
      path,
      ...(lateIn(divergence.clause) ? { unwindowed: lateIn(divergence.clause) } : {}),
    };
  /** The kind of read a clause may be late in, when the run gave that kind no window. */
  const lateIn = (clause: ClauseId): ReadKind | undefined => {
    const kind = SHOWN_LATE_IN[clause];
    return kind !== undefined && windows[kind] === 0 ? kind : undefined;
  };
  const summary = () => ({
    seed,
    runId: run.id,
    sequences,
    requests,
    elapsedMs: Date.now() - run.started,
    coverage: {
      operations: Object.fromEntries(coverage.operations),
      clauses: Object.fromEntries(coverage.clauses),
      statuses: Object.fromEntries([...coverage.statuses].map(([s, n]) => [String(s), n])),
      reached: reachedCounts(coverage),
      notJudged: Object.fromEntries(
        [...coverage.notJudged].map(([clause, reasons]) => [clause, Object.fromEntries(reasons)]),
      ),
    },
    leftBehind: run.leftBehind,
    // @note Every request sent to the target, walk pages, read-backs and clean-up included.
    sentToTarget: run.sentToTarget,
    ...(limits.met().length > 0 ? { limits: limits.met() } : {}),
    ...(pushedOff.count > 0 ? { pushedOff: { ...pushedOff } } : {}),
    ...(cutShort > 0 ? { cutShort } : {}),
    pushback: run.pushback,
  });

  // @note What the list shows before the run is someone else's: a create answering one of
  // those ids (a get-or-create, an id reused from a cache) hands a sequence data it must never
  // touch (`RunData.claim`). Unread (no list, or a list that fails), each create is read back.
  const before = await run.readBefore();
  /** Collection writes side by side, walks of the list alone (gate.ts). */
  const gate = new Gate();
  /** The target's clock as its creation dates show it, learnt across sequences. */
  const clock = new CreationClock();
  const lookOnce = () => run.lookBack(new Settle(windows));

  const runSequence = (steps: Step[], side = models[0]!): Promise<void> => {
    const run = sequence(steps, side);
    inFlight = run;
    return run.finally(() => {
      if (inFlight === run) inFlight = undefined;
    });
  };
  const sequence = async (steps: Step[], side = models[0]!): Promise<void> => {
    // @note Its number (and so its run names) is taken before anything is awaited: sequences
    // starting side by side never share one.
    const number = ++sequences;
    await side.server.reset();
    const world = new World(
      target,
      side.target,
      options.keys,
      side.server.keys,
      run.id,
      number,
      coverage,
      cleaner,
      before,
    );
    world.settle = new Settle(windows);
    world.limits = limits;
    world.profile = profile;
    // @note Only where pages are counted by position (page numbers, offsets): a token or a link
    // of a correct target does not skip or repeat for writes between pages (walkWhileWriting
    // holds it to that), so sequences then walk while others write.
    if (description.paging.page !== undefined || description.paging.offset !== undefined)
      world.gate = gate;
    // @note The creations a later walk orders are spaced past the target's clock's resolution,
    // which the run learns from the creation dates it is answered (creation-clock.ts).
    world.spacing = spacingOf(clock, steps);
    try {
      for (const step of steps) await runStep(world, step);
    } catch (error) {
      // @note The target's own limit, which its description does not state: the sequence ends
      // there, not judged, and the report says how to state it (LimitsLearned counted it).
      if (error instanceof AtLimit) return;
      // @note The target pushed back past what the client waits for (a 429 it kept answering):
      // the sequence ends there, not judged, as a fixed check that met it skips.
      if (error instanceof CheckSkipped) {
        pushedOff.count += 1;
        pushedOff.reason ??= error.message;
        return;
      }
      if (error instanceof Divergence) error.records = world.records;
      throw error;
    } finally {
      requests += world.requests;
      // @note Interrupted (a signal, or the budget's end): the sequence's requests were given up;
      // its clean-up still runs, within the deadline. One that begins before an interruption
      // is not cut short by it.
      run.cleaningUp(stop.signal.aborted || stalled() !== undefined);
      run.leave(
        await world.cleanUp(
          world.expected.objects,
          Array.from({ length: WORDS }, (_, w) => world.word(w)),
        ),
      );
    }
  };

  const sequencesArbitrary = fc.array(
    stepArbitrary(keyNames, (operation) => target.offers(operation), profile),
    { minLength: 1, maxLength: options.maxSteps ?? 20, size: 'medium' },
  );
  /** The property a lane checks: one sequence, run on its lane's model. */
  const propertyOn = (side = models[0]!) =>
    fc.asyncProperty(sequencesArbitrary, async (steps) => {
      if (interrupted()) throw new Interrupted(String(options.signal!.reason));
      await runSequence(steps, side);
    });
  const property = propertyOn();
  // @note Until the run's end, a sweep on this machine leaves its data alone.
  run.begin();
  try {
    // @note Two phases: the budget finds a divergence (stopping at the first), then as long
    // again shrinks it, replaying from where it was found. A replay is one sequence, alone.
    const found =
      options.replayPath === undefined
        ? await sideBySide()
        : await fc.check(property, {
            seed,
            numRuns: 1,
            path: options.replayPath,
            endOnFailure: true,
            plugins: [fc.interruptAfterTimeLimit(budgetMs)],
          });
    await finishInFlight();
    // @note A divergence leaves fast-check as the error it reports (`errorInstance`), with the
    // steps of its sequence; anything else that failed the check is the run's own error.
    const seen = divergenceOf(found);
    // @note The divergence as first seen is kept whatever its replays show: a bug that depends
    // on timing or ids may not show again, and is still a bug that was seen.
    // @note A lane's check has a seed of its own: its story replays by it.
    const storySeed = 'seed' in found && found.seed !== undefined ? found.seed : seed;
    const firstSeen = storyOf(seen, found.counterexamplePath ?? '', storySeed);
    const interruptedReport = () => ({
      ...summary(),
      story: firstSeen,
      interrupted: { signal: String(options.signal!.reason) },
    });
    // @note Interrupted: no shrinking; the report says what was found so far and what is left.
    if (interrupted()) return (await lookOnce(), interruptedReport());
    if (found.failed && !seen && !spent) throw errorOf(found as Parameters<typeof errorOf>[0]);
    const details =
      seen && options.replayPath === undefined && options.shrinkBudgetMs !== 0
        ? await fc.check(property, {
            seed: storySeed,
            path: found.counterexamplePath ?? undefined,
            plugins: [fc.interruptAfterTimeLimit(options.shrinkBudgetMs ?? budgetMs)],
          })
        : found;
    await finishInFlight();
    if (interrupted()) return (await lookOnce(), interruptedReport());
    const shrunk = divergenceOf(details);
    // @note A shrink that its budget ended before it replayed the sequence once is no error
    // (fast-check reports it failed, with no error): the story is the one first seen.
    if (details.failed && !shrunk && !spent && !('interrupted' in details && details.interrupted))
      throw errorOf(details);
    let story = storyOf(shrunk, details.counterexamplePath ?? '', storySeed);
    if (!story && firstSeen) story = { ...firstSeen, asFirstSeen: true };
    if (story && options.replayPath === undefined) {
      // @note How often the reported sequence shows the divergence again: a reader weighs a
      // story seen in 1 of 3 replays differently from one seen in 3 of 3. A replay is the one
      // sequence, as `--replay` runs it (`endOnFailure`: never shrunk further, which would run
      // other sequences); it shows the divergence again when it breaks the same clause; and
      // only the replays made count (an interruption stops them).
      let shown = 0;
      let of = 0;
      for (let i = 0; i < REPLAYS && !interrupted(); i++) {
        const replay = await fc.check(property, {
          seed: story.seed,
          path: story.path,
          numRuns: 1,
          endOnFailure: true,
        });
        await finishInFlight();
        if (interrupted()) break;
        of += 1;
        if (divergenceOf(replay)?.clause === story.clause) shown += 1;
      }
      story.shownAgain = { shown, of };
    }
    await lookOnce();
    return { ...summary(), story };
  } catch (error) {
    // @note A target that stalled ends the run as an error (exit 2) whatever fast-check made of
    // the stall: the run looks for what it left, and `run.end()` says so.
    if (stalled() && !interrupted()) await lookOnce();
    throw error;
  } finally {
    await Promise.all(models.map(({ server }) => server.stop()));
    await run.end();
  }

  /**
   * The search: `width` lanes side by side, each a fast-check check of its own (its own seed,
   * `laneSeed`, and its own model and run names), so that fast-check numbers each lane's runs
   * and names a counterexample's path itself. It ends at the first divergence (the lowest lane,
   * when several show), at the budget or at the request budget, through the `until` plugin;
   * what is still running then finishes (stopped at the budget's end) and is cleaned up.
   */
  async function sideBySide(): Promise<{
    failed: boolean;
    seed?: number;
    counterexamplePath?: string | null;
    error?: unknown;
    errorInstance?: unknown;
  }> {
    while (models.length < width) await addModel();
    const deadline = performance.now() + budgetMs;
    let first:
      { lane: number; seed: number; path: string | null; divergence: Divergence } | undefined;
    let crash: { error: unknown } | undefined;
    const running = new Set<Promise<void>>();
    const over = () => {
      if (first || crash || interrupted() || stop.signal.aborted) return true;
      if (performance.now() >= deadline) return true;
      if (requests > maxRequests) spent = true;
      return spent;
    };
    // @note At the budget's end what is still running is stopped, and cleaned up.
    const budgetEnd = setTimeout(() => {
      if (first || crash || running.size === 0) return;
      cutShort += running.size;
      stop.abort('the budget');
    }, budgetMs);
    const lanes = models.slice(0, width).map(async (side, lane) => {
      const seedOfLane = laneSeed(seed, lane);
      const details = await fc.check(
        fc.asyncProperty(sequencesArbitrary, async (steps) => {
          if (interrupted()) throw new Interrupted(String(options.signal!.reason));
          const run = runSequence(steps, side);
          running.add(run);
          try {
            await run;
          } catch (error) {
            // @note Stopped by the budget's end: not judged, and not a failure of the lane.
            if (stop.signal.aborted && !(error instanceof Divergence) && !interrupted()) return;
            throw error;
          } finally {
            running.delete(run);
          }
        }),
        { seed: seedOfLane, numRuns: 1_000_000, endOnFailure: true, plugins: [until(over)] },
      );
      const divergence = divergenceOf(details);
      if (divergence) {
        if (!first || lane < first.lane)
          first = { lane, seed: seedOfLane, path: details.counterexamplePath, divergence };
      } else if (details.failed && !details.interrupted && !crash && !stop.signal.aborted)
        crash = { error: errorOf(details) };
    });
    await Promise.all(lanes);
    clearTimeout(budgetEnd);
    if (stop.signal.aborted && !interrupted()) stop = linkedStop();
    if (crash) return { failed: true, error: crash.error };
    if (!first) return { failed: false };
    return {
      failed: true,
      seed: first.seed,
      counterexamplePath: first.path,
      errorInstance: first.divergence,
    };
  }
}

/**
 * The seed of lane `lane` of a run: the run's own for the first (a run of one lane is the
 * run's seed, run for run), a fixed mix of it for the others.
 */
function laneSeed(seed: number, lane: number): number {
  return lane === 0 ? seed : (Math.imul(seed ^ 0x5bd1e995, lane * 2 + 1) >>> 1) % 2 ** 31;
}

/**
 * fast-check's plugin interface (documented since 4.10) to end a check's search once `over`
 * says so: each run after it answers the documented interrupting precondition failure, as
 * fast-check's own `interruptAfterTimeLimit` plugin does. A run already going is not cut.
 */
function until(over: () => boolean): fc.Plugin<unknown> {
  return () => ({
    decorateRun: (run) => (value) =>
      over() ? Promise.resolve(new fc.PreconditionFailure(true)) : run(value),
  });
}
