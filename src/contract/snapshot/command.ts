/**
 * `answers-contract snapshot`: a deployment's data, read through its target description, written
 * as a state the mock loads (`answers-mock --fixture`, `PUT /__mock/state`), with a map of the
 * deployment's ids beside it. Read-only, bounded, and never a key copied: the `--api-key`'s
 * account becomes the mock's first dev account, the `--other-account-key`'s the second.
 */
import { Command } from 'commander';
import { parseCommand, runOptions, targetOptions, whole } from '../cli-options.ts';
import { Interrupted } from '../failure.ts';
import { listenForInterrupt, signalExitCode } from '../interrupt.ts';
import { openJsonWhole, print, printError, printProgress, writeJsonWhole } from '../output.ts';
import { Run } from '../runner/run.ts';
import { loadTargetFile } from '../target-api/load.ts';
import { createAnonymizer, type Anonymizer } from './anonymize.ts';
import {
  crawlAccount,
  timesNotes,
  type CrawlBounds,
  type CrawledCollection,
  type CrawlNotes,
} from './crawl.ts';

/** The mock's two dev accounts a snapshot fills: the full key's data, the other account's. */
export type AccountRole = 'full' | 'otherAccount';

/**
 * Where a snapshot is built: a mock started empty (its dev accounts and keys, no data), given by
 * the assembly (`src/bin`), which takes each collection as its own API would store it: the
 * mock's ids and rules, the deployment's times.
 */
export interface SnapshotStore {
  add(
    role: AccountRole,
    collection: CrawledCollection,
  ): Promise<{ id: string; objects: Array<{ id: string }> } | { refused: string }>;
  /** The mock's own dev keys: public, written as they are. */
  devKeys: readonly string[];
  /**
   * The state, as `GET /__mock/state` exports it, less the objects: `add` hands each
   * collection's back, as stored, to be written out at once.
   */
  state(): Promise<unknown>;
}

/** What `snapshot --json` and the map beside the state say of the ids: the mock's to the deployment's. */
interface IdMap {
  format: 'answers-snapshot-map/1';
  baseUrl: string;
  takenAt: string;
  collections: Record<string, string>;
  objects: Record<string, string>;
}

const DEFAULTS = { maxCollections: 1_000, maxObjects: 20_000, maxObjectsPerCollection: 5_000 };

/** Runs `snapshot` with `argv`; returns the exit status. */
export async function snapshotCommand(
  argv: string[],
  startStore: () => Promise<SnapshotStore>,
): Promise<number> {
  const env = process.env;
  const program = targetOptions(
    new Command('answers-contract snapshot').description(
      "Reads a deployment's collections and objects (list requests only, never a write) and writes them as a state the mock loads: answers-mock --fixture FILE. Keys are never copied: --api-key's account becomes the mock's first dev account, --other-account-key's the second.",
    ),
    env,
    {
      baseUrl: 'required: the deployment’s root (env ANSWERS_BASE_URL)',
      apiKey: 'required: a key of the account to copy (env ANSWERS_API_KEY)',
      required: true,
    },
  )
    .requiredOption('--out <file>', 'required: the state file to write (a map of ids beside it)')
    .option(
      '--target <file>',
      'the target description (default: our openapi.yaml)',
      env.ANSWERS_CONTRACT_TARGET || undefined,
    )
    .option(
      '--max-collections <n>',
      'the most collections copied, over both accounts',
      whole(0, 1_000_000),
      DEFAULTS.maxCollections,
    )
    .option(
      '--max-objects <n>',
      `the most objects copied in all, and at most ${DEFAULTS.maxObjectsPerCollection} of one collection unless --max-objects-per-collection says`,
      whole(0, 10_000_000),
      DEFAULTS.maxObjects,
    )
    .option(
      '--max-objects-per-collection <n>',
      'the most objects copied of one collection',
      whole(0, 10_000_000),
      DEFAULTS.maxObjectsPerCollection,
    )
    .option(
      '--anonymize',
      'replace every string of names, metadata and content by text of the same length and script, the same word always by the same word (a search for it finds the same objects); numbers, booleans, keys and timestamps kept (needs @faker-js/faker)',
    )
    .option(
      '--seed <n>',
      'the seed of --anonymize: the same seed, the same replacements',
      whole(0, 0xffff_ffff),
      1,
    );
  runOptions(program, env, 'requests in flight at once to the deployment');
  if (!parseCommand(program, argv.slice(3))) return 0;
  const options = program.opts<{
    baseUrl: string;
    apiKey: string;
    otherAccountKey?: string;
    out: string;
    target?: string;
    maxCollections: number;
    maxObjects: number;
    maxObjectsPerCollection: number;
    anonymize?: true;
    seed: number;
    concurrency?: number;
    maxBodyBytes?: number;
    maxWalkItems?: number;
    requestTimeout?: number;
  }>();
  const anonymizer = options.anonymize ? await createAnonymizer(options.seed) : undefined;
  const description = options.target ? await loadTargetFile(options.target) : undefined;
  const interruption = listenForInterrupt((line) =>
    printError(`${line.replace(', and deleting what the run created', ': nothing is written')}\n`),
  );
  const run = new Run({
    baseUrl: options.baseUrl,
    keys: { full: options.apiKey, otherAccount: options.otherAccountKey },
    description,
    concurrency: options.concurrency,
    maxBodyBytes: options.maxBodyBytes,
    maxWalkItems: options.maxWalkItems,
    requestTimeoutMs: options.requestTimeout,
    signal: interruption.signal,
  });
  const bounds: CrawlBounds = {
    maxCollections: options.maxCollections,
    maxObjects: options.maxObjects,
    maxObjectsPerCollection: Math.min(options.maxObjectsPerCollection, options.maxObjects),
  };
  const notes: CrawlNotes = {
    content: 'no object read',
    times: timesNotes(run.target),
    cut: [],
    unread: [],
  };
  const left = { collections: bounds.maxCollections, objects: bounds.maxObjects };
  const progress = process.stderr.isTTY
    ? (collections: number, objectsLeft: number) =>
        printProgress(
          `snapshot: ${collections} collections, ${bounds.maxObjects - objectsLeft} objects read`,
        )
    : undefined;
  const store = await startStore();
  const map: IdMap = {
    format: 'answers-snapshot-map/1',
    baseUrl: options.baseUrl,
    takenAt: new Date().toISOString(),
    collections: {},
    objects: {},
  };
  const refused: string[] = [];
  const counts: Record<AccountRole, { collections: number; objects: number }> = {
    full: { collections: 0, objects: 0 },
    otherAccount: { collections: 0, objects: 0 },
  };
  // @note The state is written as the crawl goes, its objects first, each collection's as it is
  // stored, so the command holds one collection's objects at a time; the file takes its name
  // only once whole (Ctrl-C leaves nothing). The state's keys are the mock's dev keys, public,
  // whatever key the crawl was given (a snapshot of a local mock is given its own): written as
  // they are; any other text equal to a key given is redacted as everywhere.
  const devKeys = new Set(store.devKeys);
  const out = await openJsonWhole(options.out, devKeys);
  let written = 0;
  try {
    await run.preflight();
    await out.text('{"objects":[');
    const accounts: Array<[AccountRole, string | undefined]> = [
      ['full', options.apiKey],
      ['otherAccount', options.otherAccountKey],
    ];
    for (const [role, key] of accounts) {
      if (key === undefined) continue;
      const keep = async (each: CrawledCollection) => {
        const added = await store.add(role, anonymizer ? anonymized(anonymizer, each) : each);
        if ('refused' in added) {
          refused.push(`collection ${each.sourceId}: ${added.refused}`);
          return;
        }
        map.collections[added.id] = each.sourceId;
        for (const [i, object] of added.objects.entries()) {
          map.objects[object.id] = each.objects[i]!.sourceId;
          if (written++ > 0) await out.text(',');
          await out.value(object);
        }
        counts[role].collections += 1;
        counts[role].objects += added.objects.length;
      };
      await crawlAccount(run.target, key, bounds, left, notes, keep, progress);
    }
    // @note The rest of the export (accounts, keys, collections, id sequences), member by
    // member after the objects, each value redacted as the objects were.
    const rest = (await store.state()) as Record<string, unknown>;
    await out.text(']');
    for (const [name, value] of Object.entries(rest)) {
      if (name === 'objects') continue;
      await out.text(`,${JSON.stringify(name)}:`);
      await out.value(value);
    }
    await out.text('}');
    await out.commit();
  } catch (error) {
    await out.abort();
    if (progress) printError('\n');
    if (error instanceof Interrupted || interruption.signal.aborted) {
      printError(`answers-contract: snapshot interrupted: nothing written to ${options.out}\n`);
      return signalExitCode(String(interruption.signal.reason));
    }
    throw error;
  } finally {
    interruption.dispose();
  }
  if (progress) printError('\n');
  await writeJsonWhole(`${options.out}.map.json`, map);
  const lines = [
    `Snapshot of ${options.baseUrl}: ${counts.full.collections + counts.otherAccount.collections} collections, ${counts.full.objects + counts.otherAccount.objects} objects, in ${run.sentToTarget} requests (lists and gets only)`,
    `  --api-key's account -> the mock's first dev account: ${counts.full.collections} collections, ${counts.full.objects} objects`,
    ...(options.otherAccountKey
      ? [
          `  --other-account-key's account -> the mock's second dev account: ${counts.otherAccount.collections} collections, ${counts.otherAccount.objects} objects`,
        ]
      : []),
    `Wrote ${options.out} (load it: answers-mock --fixture ${options.out}) and ${options.out}.map.json (the mock's ids to the deployment's)`,
    `Content: ${notes.content}`,
    ...(anonymizer
      ? [
          `Anonymized (--seed ${options.seed}): every word of names, metadata and content replaced; kept as they were: ${[...anonymizer.kept].join('; ') || 'nothing'}`,
        ]
      : []),
    ...notes.times.map((line) => `Times: ${line}`),
    ...notes.cut.map((line) => `Left out: ${line}`),
    ...notes.unread.map((line) => `Not read: ${line}`),
    ...refused.map((line) => `Not copied (the mock refuses it): ${line}`),
  ];
  print(`${lines.join('\n')}\n`);
  return 0;
}

/** `collection` with its name, metadata and objects' content anonymized; ids and times kept. */
function anonymized(anonymizer: Anonymizer, collection: CrawledCollection): CrawledCollection {
  return {
    ...collection,
    name: anonymizer.text(collection.name),
    metadata: anonymizer.json(collection.metadata) as Record<string, unknown>,
    objects: collection.objects.map((object) => ({
      ...object,
      content: anonymizer.json(object.content),
    })),
  };
}
