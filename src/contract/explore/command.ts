/** `answers-contract explore`: its options, its output, its exit status. */
import { endedEarly, endRun, listenForInterrupt } from '../interrupt.ts';
import { Command } from 'commander';
import { parseCommand, runOptions, targetOptions, UsageError } from '../cli-options.ts';
import { RunEnded } from '../runner/run.ts';
import { parseDuration } from '../sweep.ts';
import { DEFAULT_DESCRIPTION } from '../target-api/description.ts';
import { loadTargetFile } from '../target-api/load.ts';
import { clauseCoverage, coverageShortfall, unjudgeable } from './coverage.ts';
import { explore, type ExploreModel } from './explore.ts';
import { exploreJUnit, formatExplore, type CoveredExploreReport } from './story.ts';
import { renderReport } from '../html/page.ts';
import { exploreView } from '../html/explore-view.ts';

const integer = (name: string) => (text: string) => {
  const value = Number(text);
  if (!Number.isSafeInteger(value) || value < 0)
    throw new UsageError(`${name} must be a whole number, not ${text}`);
  return value;
};

/** A percentage of `--min-coverage`: a number from 0 to 100 (a fraction allowed). */
const percentage = (name: string) => (text: string) => {
  const value = Number(text);
  if (!/^\d+(\.\d+)?$/.test(text.trim()) || !(value >= 0 && value <= 100))
    throw new UsageError(`${name} must be a percentage from 0 to 100, not ${text}`);
  return value;
};

/** Runs `explore` with `argv` (`node answers-contract explore ...`); returns the exit status. */
export async function exploreCommand(
  argv: string[],
  startModel: () => Promise<ExploreModel>,
): Promise<number> {
  const env = process.env;
  const program = targetOptions(
    new Command('answers-contract explore').description(
      'Random sequences of the operations the target offers, each step compared with the kit’s own mock; a divergence is shrunk to a minimal story. Writes: only with --destructive.',
    ),
    env,
    {
      baseUrl: 'required: the target’s root (env ANSWERS_BASE_URL)',
      apiKey: 'required: a key with every permission (env ANSWERS_API_KEY)',
      required: true,
    },
  )
    .option(
      '--target <file>',
      'the target description (default: our openapi.yaml)',
      env.ANSWERS_CONTRACT_TARGET || undefined,
    )
    .option('--destructive', 'required: explore creates and deletes data (under run names)')
    .option(
      '--seed <n>',
      'the seed: the same seed gives the same sequences (default: random)',
      integer('--seed'),
    )
    .option('--budget <duration>', 'how long to look for a divergence, e.g. 60s, 5m', '60s')
    .option(
      '--shrink-budget <duration>',
      'how long to shrink a divergence once found, e.g. 30s (default: as --budget)',
    )
    .option(
      '--max-requests <n>',
      'stop starting sequences after this many requests (default 20000)',
      integer('--max-requests'),
    )
    .option('--max-steps <n>', 'the longest sequence (default 20)', integer('--max-steps'))
    .option(
      '--level <level>',
      'spec: compare what the spec states; profile: also our openapi.yaml (bodies, statuses, problem codes)',
      (text: string) => {
        if (text !== 'spec' && text !== 'profile')
          throw new UsageError(`--level must be spec or profile, not ${text}`);
        return text;
      },
      'spec',
    )
    .option('--replay <path>', 'replays the sequence a story names (with its --seed)')
    .option('--json <file>', 'writes the report, with the story, as JSON')
    .option(
      '--html <file>',
      'writes the report as one self-contained HTML page (no network; the same data as --json)',
    )
    .option(
      '--junit <file>',
      'writes a JUnit XML report: a test case per clause reached, the story’s clause failing',
    )
    .option(
      '--min-coverage <percent>',
      'fails (exit 1) unless the run reaches this share of the clauses the target lets explore judge',
      percentage('--min-coverage'),
    );
  runOptions(program, env, 'sequences side by side, and requests in flight at once to the target');
  if (!parseCommand(program, argv.slice(3))) return 0;
  const options = program.opts<{
    baseUrl: string;
    apiKey: string;
    readonlyKey?: string;
    otherAccountKey?: string;
    inactiveKey?: string;
    target?: string;
    destructive?: boolean;
    seed?: number;
    budget: string;
    maxRequests?: number;
    maxSteps?: number;
    concurrency?: number;
    maxBodyBytes?: number;
    maxWalkItems?: number;
    requestTimeout?: number;
    settle?: number;
    replay?: string;
    level: 'spec' | 'profile';
    json?: string;
    html?: string;
    junit?: string;
    minCoverage?: number;
    shrinkBudget?: string;
  }>();
  if (!options.destructive)
    throw new UsageError(
      'explore creates and deletes data: run it with --destructive, against a target where that is safe',
    );
  const budgetMs = parseDuration(options.budget);
  if (budgetMs === undefined)
    throw new UsageError(`--budget must be a duration such as 60s or 5m, not ${options.budget}`);
  const shrinkBudgetMs =
    options.shrinkBudget === undefined ? undefined : parseDuration(options.shrinkBudget);
  if (options.shrinkBudget !== undefined && shrinkBudgetMs === undefined)
    throw new UsageError(
      `--shrink-budget must be a duration such as 30s or 2m, not ${options.shrinkBudget}`,
    );
  if (options.replay !== undefined && options.seed === undefined)
    throw new UsageError('--replay needs the --seed the story printed');
  const description = options.target ? await loadTargetFile(options.target) : undefined;
  const interruption = listenForInterrupt();
  const explored = await explore({
    requestTimeoutMs: options.requestTimeout,
    signal: interruption.signal,
    baseUrl: options.baseUrl,
    startModel,
    keys: {
      full: options.apiKey,
      readonly: options.readonlyKey,
      otherAccount: options.otherAccountKey,
      inactive: options.inactiveKey,
    },
    description,
    seed: options.seed,
    budgetMs,
    shrinkBudgetMs,
    maxRequests: options.maxRequests,
    maxSteps: options.maxSteps,
    concurrency: options.concurrency,
    maxBodyBytes: options.maxBodyBytes,
    maxWalkItems: options.maxWalkItems,
    settleMs: options.settle,
    level: options.level,
    replayPath: options.replay,
  })
    .catch((error: unknown) => {
      // @note A target that stalled ended the run: what is left, and how to delete it; the
      // stall itself is the one line of exit 2 (cli.ts).
      if (!(error instanceof RunEnded)) throw error;
      endedEarly(error, options.baseUrl, true);
      throw error.cause;
    })
    .finally(() => interruption.dispose());
  const command = [
    'npx --no -- answers-contract explore --destructive',
    `--base-url ${options.baseUrl}`,
    ...(options.target ? [`--target ${options.target}`] : []),
    ...(options.level === 'profile' ? ['--level profile'] : []),
    // @note Side by side, a divergence may need another sequence's writes to show: the run's
    // width is part of the line that reruns it.
    ...(options.concurrency !== undefined ? [`--concurrency ${options.concurrency}`] : []),
  ].join(' ');
  const { operations } = description ?? DEFAULT_DESCRIPTION;
  const report: CoveredExploreReport = {
    ...explored,
    clauseCoverage: clauseCoverage(
      explored.coverage,
      (op) => Boolean(operations[op]),
      options.level,
      unjudgeable((description ?? DEFAULT_DESCRIPTION).paging),
    ),
  };
  const { minCoverage } = options;
  // @note The replay line reads the keys from the environment, never prints them: when this run
  // was given keys as options, say which variables to set for it to paste as printed.
  const fromOptions = (
    [
      ['ANSWERS_API_KEY', options.apiKey],
      ['ANSWERS_READONLY_KEY', options.readonlyKey],
      ['ANSWERS_OTHER_ACCOUNT_KEY', options.otherAccountKey],
      ['ANSWERS_INACTIVE_KEY', options.inactiveKey],
    ] as const
  ).filter(([name, value]) => value !== undefined && process.env[name] !== value);
  const keysNote =
    report.story && fromOptions.length > 0
      ? `\nThe replay line reads its keys from the environment: set ${fromOptions.map(([name]) => name).join(', ')} to the keys this run was given.`
      : '';
  return endRun(report, {
    baseUrl: options.baseUrl,
    text: `${formatExplore(report, command, minCoverage, options.baseUrl)}${keysNote}`,
    namesLeftBehind: true,
    json: { file: options.json, value: report },
    junit: { file: options.junit, xml: () => exploreJUnit(report, command, minCoverage) },
    html: {
      file: options.html,
      page: (redacted) => renderReport(exploreView(redacted, command)),
    },
    interruptedBy: (signal) => `Interrupted by ${signal} after ${report.sequences} sequences.`,
    // @note As for the suite: data left behind fails the run (`sweep` removes it).
    exitStatus: () =>
      report.story ||
      report.leftBehind.length > 0 ||
      coverageShortfall(report.clauseCoverage, minCoverage)
        ? 1
        : 0,
  });
}
