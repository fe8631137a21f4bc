/**
 * `answers-contract replay`: the sequences a consumer's tests had with the mock (or a HAR of an
 * app's traffic), each replayed in order on a target and judged against the answers the consumer
 * saw. Sequences run side by side (`concurrency`), each with its own run names and id map; what
 * a sequence created is deleted after it, and what the target still shows at the end is left
 * behind. Writes only with `destructive`: a sequence that writes is otherwise not replayed.
 */
import { ContractClient, totalPushback } from '../client.ts';
import { LIMITS } from '../limits.ts';
import { answersAtItsPaths } from '../preflight.ts';
import { RunEnded } from '../runner.ts';
import { DEFAULT_DESCRIPTION, type TargetDescription } from '../target-api/description.ts';
import { startHeartbeat } from '../heartbeat.ts';
import { newRunId } from '../target-api/run-name.ts';
import { Target } from '../target-api/target.ts';
import type { Recording, RecordedSequence } from '../../openapi/recording.ts';
import { Coverage, type Keys } from '../explore/comparison.ts';
import { Divergence } from '../judges/verdict.ts';
import { Gate } from '../explore/gate.ts';
import { lookBack } from '../explore/leftovers.ts';
import { listBeforeRun } from '../target-api/run-data.ts';
import { World } from '../explore/world.ts';
import { filesJudged } from './nothing-judged.ts';
import { matched, SequenceReplay, writes } from './sequence.ts';
import type { ReplayedSequence, ReplayReport } from './outcome.ts';

export type { ReplayReport } from './outcome.ts';

export interface ReplayOptions {
  baseUrl: string;
  keys: Keys;
  recording: Recording;
  /**
   * The files the recording was read from, each with how many of its sequences it gave, in
   * order: a file none of whose exchanges is judged is not passed (default: one, the recording).
   */
  files?: ReadonlyArray<{ file: string; tests: number }> | undefined;
  /** How the target realises the API (default: our openapi.yaml). */
  description?: TargetDescription | undefined;
  /** What the recording was made against (default: our openapi.yaml, i.e. the kit's mock). */
  recordedAgainst?: TargetDescription | undefined;
  /** Replays sequences that write (create, update, delete). Without it they are not replayed. */
  destructive?: boolean | undefined;
  /** Sequences side by side, and requests in flight at once (default 4). */
  concurrency?: number | undefined;
  /** How long a read after a write may take to show it (default 0). */
  settleMs?: number | undefined;
  maxBodyBytes?: number | undefined;
  maxWalkItems?: number | undefined;
  /**
   * Who gave the recorded answers, in messages: `the consumer` (default), or `the deployment`
   * when a HAR of a deployment is replayed against the mock.
   */
  recordedBy?: string | undefined;
  /** Aborted to interrupt: no exchange is sent after it; the clean-up still runs. */
  signal?: AbortSignal | undefined;
  cleanupDeadlineMs?: number | undefined;
  /**
   * How long one request may take, its whole body read (default 10 s): past it the target
   * stalled, no exchange is sent after it, and the run cleans up and throws `RunEnded`.
   */
  requestTimeoutMs?: number | undefined;
}

export async function replay(options: ReplayOptions): Promise<ReplayReport> {
  const started = Date.now();
  const runId = newRunId(started);
  const description = options.description ?? DEFAULT_DESCRIPTION;
  const concurrency = Math.max(1, options.concurrency ?? 4);
  const client = (stoppable: boolean) => {
    const http = new ContractClient(
      options.baseUrl,
      options.keys.full,
      false,
      undefined,
      options.requestTimeoutMs,
      concurrency,
    );
    if (options.maxBodyBytes) http.maxBodyBytes = options.maxBodyBytes;
    if (options.maxWalkItems) http.maxWalkItems = options.maxWalkItems;
    if (stoppable) http.stopOn(options.signal);
    return http;
  };
  const http = client(true);
  const cleanerClient = client(false);
  const target = new Target(description, http, false);
  const cleaner = new Target(description, cleanerClient, false);
  // @note The recording's side is read, never sent to: its client has nowhere to go.
  const source = new Target(
    options.recordedAgainst ?? DEFAULT_DESCRIPTION,
    new ContractClient('http://127.0.0.1:9', options.keys.full, false),
    false,
  );
  // @note As the suite asks before it sends anything: a target that answers nothing at the
  // description's paths is a set-up error, not a failure of every exchange.
  await answersAtItsPaths(target, options.keys.full);
  cleanerClient.keyHeader = http.keyHeader;
  const before = await listBeforeRun(cleaner, [options.keys.full, options.keys.otherAccount]);
  const coverage = new Coverage();
  const paged = description.paging.page !== undefined || description.paging.offset !== undefined;
  const gate = paged ? new Gate() : undefined;
  const leftBehind: string[] = [];
  const interrupted = () => options.signal?.aborted === true;
  const deadline = options.cleanupDeadlineMs ?? LIMITS.cleanupDeadlineMs;

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
    world.settleMs = options.settleMs ?? 0;
    world.modelName = options.recordedBy ?? 'the consumer';
    if (interrupted()) return { ...result, notReplayed: 'interrupted before it began' };
    if (
      !options.destructive &&
      sequence.exchanges.some((e) => {
        const request = matched(world, e);
        return request !== undefined && !e.forced && writes(request.operation);
      })
    )
      return { ...result, notReplayed: 'it writes: replay it with --destructive' };
    const replaying = new SequenceReplay(world, `answers-contract-unknown-key-${runId}`, gate);
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
      cleanerClient.cleaningUp(interrupted() || http.stalledBy ? deadline : undefined);
      const left = [
        ...(await (gate
          ? gate.write(() => world.run.cleanup(options.keys, undefined, false))
          : world.run.cleanup(options.keys, undefined, false))),
        ...(await orphanedObjects(cleaner, replaying, options.keys)),
      ];
      for (const each of left) if (!leftBehind.includes(each)) leftBehind.push(each);
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
  const heartbeat = startHeartbeat(runId);
  try {
    await Promise.all(Array.from({ length: concurrency }, lane));
    // @note Whatever ended the run, what it made is looked for: a crash says what it left.
    for (const left of await lookBack(cleaner, cleanerClient, options.keys, runId, deadline))
      if (!leftBehind.includes(left)) leftBehind.push(left);
  } finally {
    await heartbeat.stop();
  }
  // @note A stall ends the run whatever error the sequence that met it ended with.
  if (http.stalledBy && !interrupted()) throw new RunEnded(http.stalledBy, runId, leftBehind);
  if (crash) throw new RunEnded(crash.error, runId, leftBehind);
  const clients = [http, cleanerClient];
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
  return {
    passed:
      !interrupted() &&
      nothingJudged === undefined &&
      leftBehind.length === 0 &&
      !sequences.some((s) => s.divergence),
    runId,
    baseUrl: options.baseUrl,
    sequences,
    sentToTarget: clients.reduce((sum, each) => sum + each.sent, 0),
    elapsedMs: Date.now() - started,
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
    pushback: totalPushback(clients),
    ...(interrupted() ? { interrupted: { signal: String(options.signal!.reason) } } : {}),
  };
}

/**
 * The sequence's objects the target still answers once their collections are deleted (a delete
 * that did not cascade): deleted one by one where it offers that, then asked for again; what it
 * still answers is left behind.
 */
async function orphanedObjects(
  cleaner: Target,
  replaying: SequenceReplay,
  keys: Keys,
): Promise<string[]> {
  if (!cleaner.offers('getObject')) return [];
  const left: string[] = [];
  for (const pair of replaying.byTargetId.values()) {
    const key = keys[pair.key] ?? keys.full;
    const params = { collection_id: pair.collection.target, object_id: pair.target };
    const held = async () => {
      const answer = await cleaner.send('getObject', { key, params }).catch(() => undefined);
      return answer !== undefined && answer.status >= 200 && answer.status < 300;
    };
    try {
      if (!(await held())) continue;
      if (cleaner.offers('deleteObject')) await cleaner.send('deleteObject', { key, params });
      if (await held())
        left.push(`object ${pair.target} (still answered after its collection was deleted)`);
    } catch (error) {
      left.push(`object ${pair.target} (could not be looked up: ${(error as Error).message})`);
    }
  }
  return left;
}
