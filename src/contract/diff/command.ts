/**
 * `answers-contract diff`: the snapshot a `snapshot` run wrote, loaded into a mock in process,
 * and the same reads sent to it and to the deployment (never a write), each difference classed
 * as spec, profile or description with its evidence; `--baseline` keeps only what is new since
 * an earlier `--json`, so a nightly job flags a release that changed behaviour.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { Command, Option } from 'commander';
import { parseCommand, runOptions, targetOptions, UsageError, whole } from '../cli-options.ts';
import { Interrupted } from '../failure.ts';
import { listenForInterrupt, signalExitCode } from '../interrupt.ts';
import { print, printError, writeHtml, writeJson, writeXml } from '../output.ts';
import { Run } from '../runner/run.ts';
import { loadTargetFile } from '../target-api/load.ts';
import { judgeDiff } from './judge.ts';
import { planOf, type IdMap, type StateFile } from './plan.ts';
import { pageSizes, readSide } from './read.ts';
import {
  diffJUnit,
  diffVerdict,
  formatDiff,
  groupFindings,
  type DiffReport,
  type FailOn,
} from './report.ts';
import { renderReport } from '../html/page.ts';
import { diffView } from '../html/diff-view.ts';

/** The mock serving a snapshot, given by the assembly (`src/bin`): its API root and dev keys. */
export interface ServedSnapshot {
  baseUrl: string;
  keys: { full: string; otherAccount: string };
  /** The state as the mock holds it (its export). */
  state: unknown;
  stop: () => Promise<void>;
}

async function readJson(file: string, what: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new UsageError(`cannot read ${what} ${file}: ${(error as Error).message}`);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new UsageError(`${what} ${file} is not JSON: ${(error as Error).message}`);
  }
}

function isMap(value: unknown): value is IdMap {
  const map = value as Partial<IdMap> | null;
  return (
    typeof map === 'object' &&
    map !== null &&
    map.format === 'answers-snapshot-map/1' &&
    typeof map.collections === 'object' &&
    typeof map.objects === 'object'
  );
}

/**
 * The ids of an earlier `--json`'s differences; undefined where the file does not exist yet (a
 * nightly job's first night: every difference is new).
 */
async function baselineIds(file: string): Promise<Set<string> | undefined> {
  if (!existsSync(file)) return undefined;
  const report = (await readJson(file, '--baseline')) as Partial<DiffReport> | null;
  if (report?.format !== 'answers-diff/1' || !Array.isArray(report.differences))
    throw new UsageError(`--baseline ${file} is not a report of answers-contract diff --json`);
  return new Set(report.differences.map((each) => each.id));
}

/** Runs `diff` with `argv`; returns the exit status (0 nothing new, 1 new differences, 2 set-up). */
export async function diffCommand(
  argv: string[],
  serve: (file: string) => Promise<ServedSnapshot>,
): Promise<number> {
  const env = process.env;
  const program = targetOptions(
    new Command('answers-contract diff').description(
      'Loads a snapshot (answers-contract snapshot --out FILE) into the mock and sends the same reads to it and to the deployment (lists at two page sizes, gets, searches; never a write), then reports each difference: spec (the deployment breaks a rule the spec states), profile (it decides an open point unlike our openapi.yaml: where the mock would mislead a frontend) or description (the description does not fit its answers).',
    ),
    env,
    {
      baseUrl: 'required: the deployment’s root (env ANSWERS_BASE_URL)',
      apiKey: 'required: a key of the account the snapshot copied (env ANSWERS_API_KEY)',
      required: true,
    },
  )
    .requiredOption(
      '--snapshot <file>',
      'required: the state snapshot wrote (its map beside it, <file>.map.json)',
    )
    .option(
      '--target <file>',
      'the target description (default: our openapi.yaml)',
      env.ANSWERS_CONTRACT_TARGET || undefined,
    )
    .option('--json <file>', 'write the report as JSON (a later run’s --baseline)')
    .option('--junit <file>', 'write the report as JUnit XML')
    .option(
      '--html <file>',
      'write the report as one self-contained HTML page (no network; the same data as --json)',
    )
    .option('--baseline <file>', 'an earlier run’s --json: report only what is new since')
    .addOption(
      new Option(
        '--fail-on <level>',
        'exit 1 on new differences of this level: spec (and description), or profile (any)',
      )
        .choices(['spec', 'profile'])
        .default('spec'),
    )
    .option(
      '--searches <n>',
      'the words searched for, sampled from the snapshot',
      whole(0, 1000),
      10,
    )
    .option('--seed <n>', 'the seed of the sample of words', whole(0, 0xffff_ffff), 1)
    .option(
      '--max-collections <n>',
      'the most collections of the --api-key account read',
      whole(1, 1_000_000),
      1_000,
    );
  runOptions(program, env, 'requests in flight at once to the deployment');
  if (!parseCommand(program, argv.slice(3))) return 0;
  const options = program.opts<{
    baseUrl: string;
    apiKey: string;
    otherAccountKey?: string;
    snapshot: string;
    target?: string;
    json?: string;
    html?: string;
    junit?: string;
    baseline?: string;
    failOn: FailOn;
    searches: number;
    seed: number;
    maxCollections: number;
    concurrency?: number;
    maxBodyBytes?: number;
    maxWalkItems?: number;
    requestTimeout?: number;
  }>();
  const map = await readJson(`${options.snapshot}.map.json`, 'the id map');
  if (!isMap(map))
    throw new UsageError(
      `${options.snapshot}.map.json is not the id map answers-contract snapshot writes`,
    );
  const baseline = options.baseline ? await baselineIds(options.baseline) : undefined;
  const description = options.target ? await loadTargetFile(options.target) : undefined;
  const served = await serve(options.snapshot).catch((error: unknown) => {
    throw new UsageError(`--snapshot ${options.snapshot}: ${(error as Error).message}`);
  });
  const interruption = listenForInterrupt((line) =>
    printError(`${line.replace(', and deleting what the run created', '')}\n`),
  );
  const settings = {
    concurrency: options.concurrency,
    maxBodyBytes: options.maxBodyBytes,
    maxWalkItems: options.maxWalkItems,
    requestTimeoutMs: options.requestTimeout,
    signal: interruption.signal,
  };
  const deployment = new Run({
    ...settings,
    baseUrl: options.baseUrl,
    keys: { full: options.apiKey, otherAccount: options.otherAccountKey },
    description,
  });
  const mock = new Run({ ...settings, baseUrl: served.baseUrl, keys: { full: served.keys.full } });
  try {
    await deployment.preflight();
    const state = served.state as StateFile;
    const plan = planOf(state, map, served.keys, {
      searches: options.searches,
      // @note Every hit of a sampled word fits the first page of both: our document's 10, or less.
      mostHolders: Math.min(10, deployment.target.description.search.limit ?? 10),
      seed: options.seed,
      maxCollections: options.maxCollections,
    });
    const sizes = pageSizes(deployment.target);
    const scoped = deployment.target.canScopeSearch();
    const theirs = await readSide(
      deployment.target,
      'deployment',
      plan,
      options.apiKey,
      sizes,
      scoped,
    );
    const ours = await readSide(mock.target, 'mock', plan, served.keys.full, sizes, scoped);
    const judged = judgeDiff(
      plan,
      { target: deployment.target, reading: theirs },
      { target: mock.target, reading: ours },
      (id) => map.collections[id] ?? map.objects[id] ?? id,
    );
    const differences = groupFindings(judged.findings, baseline);
    const objects = plan.collections.reduce((sum, each) => sum + each.objects.length, 0);
    const report: DiffReport = {
      format: 'answers-diff/1',
      deployment: options.baseUrl,
      snapshot: { file: options.snapshot, takenAt: map.takenAt },
      compared: { collections: plan.collections.length, objects, searches: theirs.searches.length },
      requests: { deployment: theirs.requests, mock: ours.requests },
      agreed: judged.agreed,
      failOn: options.failOn,
      ...(options.baseline
        ? {
            baseline: baseline
              ? options.baseline
              : `${options.baseline} (not there yet: every difference is new)`,
          }
        : {}),
      differences,
      notes: judged.notes,
      verdict: diffVerdict(judged, differences, options.failOn, plan.collections.length),
    };
    print(`${formatDiff(report)}\n`);
    if (options.json) await writeJson(options.json, report);
    if (options.junit) await writeXml(options.junit, diffJUnit(report));
    if (options.html)
      await writeHtml(options.html, report, (redacted) => renderReport(diffView(redacted)));
    return report.verdict === 'nothing compared' ? 2 : report.verdict === 'new differences' ? 1 : 0;
  } catch (error) {
    if (error instanceof Interrupted || interruption.signal.aborted) {
      printError('answers-contract: diff interrupted: no report written\n');
      return signalExitCode(String(interruption.signal.reason));
    }
    throw error;
  } finally {
    interruption.dispose();
    await served.stop();
  }
}
