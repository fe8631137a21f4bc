/**
 * `answers-contract replay`: the sequences a consumer's tests had with the mock (or a HAR of an
 * app's traffic), each replayed in order on a target and judged against the answers the consumer
 * saw. Sequences run side by side (`concurrency`), each with its own run names and id map; what
 * a sequence created is deleted after it, and what the target still shows at the end is left
 * behind. Writes only with `destructive`: a sequence that writes is otherwise not replayed.
 */
import { ContractClient } from '../client.ts';
import { DEFAULT_DESCRIPTION, type TargetDescription } from '../target-api/description.ts';
import { Target } from '../target-api/target.ts';
import type { Recording, RecordedSequence } from '../../openapi/recording.ts';
import { Coverage, type Keys } from '../explore/comparison.ts';
import { Divergence } from '../judges/verdict.ts';
import { Gate } from '../runner/gate.ts';
import { Settle, windowsOf } from '../settle.ts';
import { Run, RunEnded, type RunSettings } from '../runner/run.ts';
import { World } from '../explore/world.ts';
import { filesJudged } from './nothing-judged.ts';
import { writes } from '../target-api/description.ts';
import { matched, SequenceReplay } from './sequence.ts';
import type { ReplayedSequence, ReplayReport } from './outcome.ts';

export type { ReplayReport } from './outcome.ts';

export interface ReplayOptions extends RunSettings {
  keys: Keys;
  recording: Recording;
  /**
   * The files the recording was read from, each with how many of its sequences it gave, in
   * order: a file none of whose exchanges is judged is not passed (default: one, the recording).
   */
  files?: ReadonlyArray<{ file: string; tests: number }> | undefined;
  /** What the recording was made against (default: our openapi.yaml, i.e. the kit's mock). */
  recordedAgainst?: TargetDescription | undefined;
  /** Replays sequences that write (create, update, delete). Without it they are not replayed. */
  destructive?: boolean | undefined;
  /**
   * A compatibility note (what a test relies on that the target decides otherwise, where the
   * spec leaves it open) fails the run (`--strict-compatibility`). Default: reported only.
   */
  strictCompatibility?: boolean | undefined;
  /** How long a read after a write may take to show it (default 0). */
  settleMs?: number | undefined;
  /**
   * Who gave the recorded answers, in messages: `the consumer` (default), or `the deployment`
   * when a HAR of a deployment is replayed against the mock.
   */
  recordedBy?: string | undefined;
}

export async function replay(options: ReplayOptions): Promise<ReplayReport> {
  const run = new Run({ ...options, profile: false });
  const { target, cleaner, description, concurrency } = run;
  const runId = run.id;
  // @note The recording's side is read, never sent to: its client has nowhere to go.
  const source = new Target(
    options.recordedAgainst ?? DEFAULT_DESCRIPTION,
    new ContractClient('http://127.0.0.1:9', options.keys.full, false),
    false,
  );
  // @note As the suite asks before it sends anything: a target that answers nothing at the
  // description's paths is a set-up error, not a failure of every exchange.
  await run.preflight();
  const before = await run.readBefore();
  const coverage = new Coverage();
  const paged = description.paging.page !== undefined || description.paging.offset !== undefined;
  const gate = paged ? new Gate() : undefined;
  const interrupted = () => run.interrupted;

  const one = async (sequence: RecordedSequence, index: number): Promise<ReplayedSequence> => {
    const result: ReplayedSequence = {
      name: sequence.name,
      exchanges: sequence.exchanges.length,
      outcome: { judged: 0, notJudged: {} },
    };
    const world = new World(
      target,
      source,
      options.keys,
      options.keys,
      runId,
      index,
      coverage,
      cleaner,
      before,
    );
    world.settle = new Settle(windowsOf(description.consistency, options.settleMs));
    world.modelName = options.recordedBy ?? 'the consumer';
    if (gate) world.gate = gate;
    if (interrupted()) return { ...result, notReplayed: 'interrupted before it began' };
    if (
      !options.destructive &&
      sequence.exchanges.some((e) => {
        const request = matched(world, e);
        return request !== undefined && !e.forced && writes(request.operation);
      })
    )
      return { ...result, notReplayed: 'it writes: replay it with --destructive' };
    const replaying = new SequenceReplay(world, `answers-contract-unknown-key-${runId}`);
    result.outcome = replaying.outcome;
    let done = 0;
    try {
      for (const exchange of sequence.exchanges) {
        if (interrupted()) break;
        await replaying.exchange(exchange);
        done += 1;
      }
    } catch (error) {
      if (error instanceof Divergence) {
        const steps = world.records;
        result.divergence = {
          clause: error.clause,
          message: error.detail,
          steps,
          divergedAt: Math.max(0, steps.indexOf(error.step)),
          ...(error.difference ? { difference: error.difference } : {}),
        };
      } else if (!interrupted()) throw error;
    } finally {
      // @note A test the interruption cut short agreed with nothing: never shown as agreed.
      if (!result.divergence && done < sequence.exchanges.length)
        result.notReplayed = `interrupted after ${done} of ${sequence.exchanges.length} exchanges`;
      // @note After a stall as after a signal: the clean-up gets its deadline, not more.
      run.cleaningUp();
      run.leave(await world.cleanUp([...replaying.byTargetId.values()], []));
    }
    return result;
  };

  const sequences: ReplayedSequence[] = [];
  let next = 0;
  /** The run's own error, if a sequence met one: no sequence starts after it. */
  let crash: { error: unknown } | undefined;
  const lane = async () => {
    while (next < options.recording.sequences.length && !crash) {
      const index = next++;
      try {
        sequences[index] = await one(options.recording.sequences[index]!, index + 1);
      } catch (error) {
        crash ??= { error };
      }
    }
  };
  // @note Until the run's end, a sweep on this machine leaves its data alone.
  run.begin();
  try {
    await Promise.all(Array.from({ length: concurrency }, lane));
    // @note Whatever ended the run, what it made is looked for: a crash says what it left.
    await run.lookBack(new Settle(windowsOf(description.consistency, options.settleMs)));
  } finally {
    // @note A stall ends the run whatever error the sequence that met it ended with.
    await run.end();
  }
  const { leftBehind } = run;
  if (crash) throw new RunEnded(crash.error, runId, leftBehind);
  const files = filesJudged(
    options.files ?? [{ file: 'the recording', tests: options.recording.sequences.length }],
    sequences,
    (options.recordedAgainst ?? DEFAULT_DESCRIPTION).source,
  );
  // @note An interrupted run judged what it reached: its signal, not its files, is its verdict.
  const nothingJudged = interrupted()
    ? undefined
    : files
        .filter((file) => file.nothingJudged !== undefined)
        .map((file) => `in ${file.file}: ${file.nothingJudged}`)
        .join('; ') || undefined;
  const compatibility: Record<string, number> = {};
  for (const { outcome } of sequences)
    for (const [note, n] of Object.entries(outcome.compatibility ?? {}))
      compatibility[note] = (compatibility[note] ?? 0) + n;
  const strict = options.strictCompatibility === true;
  return {
    passed:
      !interrupted() &&
      nothingJudged === undefined &&
      leftBehind.length === 0 &&
      !sequences.some((s) => s.divergence) &&
      !(strict && Object.keys(compatibility).length > 0),
    compatibility,
    ...(strict ? { strictCompatibility: true as const } : {}),
    runId,
    baseUrl: options.baseUrl,
    sequences,
    sentToTarget: run.sentToTarget,
    elapsedMs: Date.now() - run.started,
    leftBehind,
    files,
    ...(nothingJudged === undefined ? {} : { nothingJudged }),
    coverage: {
      clauses: Object.fromEntries(coverage.clauses),
      operations: Object.fromEntries(coverage.operations),
      notJudged: Object.fromEntries(
        [...coverage.notJudged].map(([clause, reasons]) => [clause, Object.fromEntries(reasons)]),
      ),
    },
    pushback: run.pushback,
    ...(interrupted() ? { interrupted: { signal: String(options.signal!.reason) } } : {}),
  };
}
