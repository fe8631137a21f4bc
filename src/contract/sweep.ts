import { ContractClient } from './client.ts';
import type { TargetDescription } from './target/description.ts';
import { Target } from './target/target.ts';

/** What a sweep found and did. */
export interface SweepResult {
  deleted: string[];
  /** Leftovers that could not be deleted, with the reason. */
  failed: string[];
  /** Runs' data younger than the limit, left alone. */
  kept: string[];
}

const RUN_NAME = /answers-contract-([0-9a-z]{5,})-/;

/** When a run started, from its id: the start time in base 36, then 4 random characters. */
export function runStartedAt(runId: string): number | undefined {
  if (runId.length < 5) return undefined;
  const ms = Number.parseInt(runId.slice(0, -4), 36);
  return Number.isSafeInteger(ms) ? ms : undefined;
}

/** Parses a duration such as `90s`, `30m`, `1h`, `2d` into ms. */
export function parseDuration(text: string): number | undefined {
  const match = /^(\d+)\s*(s|m|h|d)$/.exec(text.trim());
  if (!match) return undefined;
  const unit = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 }[
    match[2] as 's' | 'm' | 'h' | 'd'
  ];
  return Number(match[1]) * unit;
}

/**
 * Deletes the collections earlier contract runs left behind (named `answers-contract-<run id>-…`)
 * whose run started more than `olderThanMs` ago, and nothing else: a collection is touched only
 * when its summary carries such a name and the run id's time is older than the limit.
 */
export async function sweep(options: {
  baseUrl: string;
  key: string;
  description: TargetDescription;
  olderThanMs: number;
  dryRun?: boolean;
  now?: number;
}): Promise<SweepResult> {
  const target = new Target(
    options.description,
    new ContractClient(options.baseUrl, options.key, false),
    false,
  );
  for (const needed of ['listCollections', 'deleteCollection'] as const)
    if (!target.offers(needed)) throw new Error(target.missing(needed));
  const now = options.now ?? Date.now();
  const result: SweepResult = { deleted: [], failed: [], kept: [] };
  for (const summary of await target.walkCollections()) {
    const runId = RUN_NAME.exec(JSON.stringify(summary))?.[1];
    const id = target.collectionIdOf(summary);
    if (!runId || !id) continue;
    const started = runStartedAt(runId);
    if (started === undefined || now - started < options.olderThanMs) {
      result.kept.push(id);
      continue;
    }
    if (options.dryRun) {
      result.deleted.push(id);
      continue;
    }
    const response = await target.send('deleteCollection', { params: { collection_id: id } });
    if ((response.status >= 200 && response.status < 300) || target.isGone(response.status))
      result.deleted.push(id);
    else result.failed.push(`${id} (${response.status})`);
  }
  return result;
}
