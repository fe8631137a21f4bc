import { ContractClient } from './client.ts';
import { liveRunsHere } from './heartbeat.ts';
import type { TargetDescription } from './target-api/description.ts';
import { parseRunName, runStartedAt } from './target-api/run-name.ts';
import { Target } from './target-api/target.ts';

export { runStartedAt };

/** One collection a sweep matched: what it is, and why it is a run's. */
export interface SweepMatch {
  id: string;
  name: string;
  runId: string;
  startedAt: string;
}

/** What a sweep found and did. */
export interface SweepResult {
  /** Deleted (or, with `dryRun`, would be), each with why it matched. */
  deleted: SweepMatch[];
  /** Matches that could not be deleted, or were not deleted because a read-back disowned them. */
  failed: string[];
  /** Runs' data younger than the limit (or of another run than `--run`), left alone. */
  kept: string[];
  /** Data of runs alive on this machine (their heartbeat, heartbeat.ts), left alone whatever its age. */
  alive: string[];
}

/**
 * The shortest `--older-than`: longer than the runs the kit makes with their defaults (explore's
 * 60 s budget and as long again to shrink, the suite's few minutes, a replay of a recording of
 * thousands of tests). A sweep on the machine a run runs on sees its heartbeat and never deletes
 * its data; a sweep from another machine cannot see it, and only this age tells it a run has
 * ended: an `--older-than` of 5 s deleted a live explore run's collection, which explore then
 * reported as the target's divergence (issue 46). A run longer than this one (explore with a
 * `--budget` of 30 min or more) needs an `--older-than` longer than it, from another machine.
 */
export const SWEEP_FLOOR_MS = 3_600_000;

/** Parses a duration such as `90s`, `30m`, `1h`, `2d` into ms. */
export function parseDuration(text: string): number | undefined {
  const match = /^(\d+)\s*(s|m|h|d)$/.exec(text.trim());
  if (!match) return undefined;
  const unit = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 }[
    match[2] as 's' | 'm' | 'h' | 'd'
  ];
  return Number(match[1]) * unit;
}

/** How a dry run explains one match. */
export function explainMatch(match: SweepMatch, now = Date.now()): string {
  const hours = (now - Date.parse(match.startedAt)) / 3_600_000;
  const age = hours < 48 ? `${hours.toFixed(1)} h ago` : `${(hours / 24).toFixed(1)} days ago`;
  return `${match.id}: named "${match.name}", the kit's shape for run ${match.runId}, which started ${match.startedAt} (${age})`;
}

/**
 * Deletes the collections earlier contract runs left behind and nothing else. A collection is a
 * run's only when its name member, as a whole, has a shape the kit writes
 * (`answers-contract-<run id>-<what>`, see target-api/run-name.ts) with a run time the kit could have
 * written; nothing else of a summary (metadata, other text) is read. It is deleted when that run
 * started at least `olderThanMs` ago (or is `runId`), after a get reads it back with that name,
 * unless that run is alive on this machine (heartbeat.ts).
 */
export async function sweep(options: {
  baseUrl: string;
  key: string;
  description: TargetDescription;
  olderThanMs?: number;
  /** Only this run's data, whatever its age (the line an interrupted run prints). */
  runId?: string;
  dryRun?: boolean;
  now?: number;
  /** The runs alive on this machine (default: their heartbeats, read once at the start). */
  liveRuns?: ReadonlySet<string>;
}): Promise<SweepResult> {
  const target = new Target(
    options.description,
    new ContractClient(options.baseUrl, options.key, false),
    false,
  );
  for (const needed of ['listCollections', 'deleteCollection'] as const)
    if (!target.offers(needed)) throw new Error(target.missing(needed));
  if (options.description.collection.name === undefined)
    throw new Error(
      `${options.description.source} does not say where a collection's name is (collection.name): sweep tells a run's data by its name alone`,
    );
  const now = options.now ?? Date.now();
  const result: SweepResult = { deleted: [], failed: [], kept: [], alive: [] };
  const live = options.liveRuns ?? liveRunsHere(now);
  for (const summary of await target.walkCollections()) {
    const name = target.nameOf(summary);
    const run = parseRunName(name, now);
    const id = target.collectionIdOf(summary);
    if (!run || !id || name === undefined) continue;
    // @note A run still going on here is never swept, `--run` included: its data is in use.
    if (live.has(run.runId)) {
      result.alive.push(id);
      continue;
    }
    const wanted =
      options.runId !== undefined
        ? run.runId === options.runId
        : now - run.startedAt >= (options.olderThanMs ?? Number.POSITIVE_INFINITY);
    if (!wanted) {
      result.kept.push(id);
      continue;
    }
    const match = { id, name, runId: run.runId, startedAt: new Date(run.startedAt).toISOString() };
    if (options.dryRun) {
      result.deleted.push(match);
      continue;
    }
    // @note Read back before the delete: a list whose ids and names disagree deletes nothing.
    if (target.offers('getCollection')) {
      const got = await target.send('getCollection', { params: { collection_id: id } });
      if (target.isGone(got.status)) continue;
      const shown =
        got.status >= 200 && got.status < 300
          ? target.nameOf(target.collectionIn(got.json))
          : undefined;
      if (shown !== name) {
        result.failed.push(
          `${id} (not deleted: the list names it "${name}", its get answered ${got.status}${shown === undefined ? '' : ` naming it "${shown}"`})`,
        );
        continue;
      }
    }
    const response = await target.send('deleteCollection', { params: { collection_id: id } });
    if ((response.status >= 200 && response.status < 300) || target.isGone(response.status))
      result.deleted.push(match);
    else result.failed.push(`${id} (${response.status})`);
  }
  return result;
}
