import { Command, InvalidArgumentError, Option } from 'commander';
import { CHECKS } from './checks/index.ts';
import { formatReport, formatResult, toJUnit } from './report.ts';
import { endedEarly, endRun, listenForInterrupt } from './interrupt.ts';
import { runContract, RunEnded, TargetError, type ContractReport, type Level } from './runner.ts';
import type { RunKeys } from './runner/run.ts';
import { flag, parseCommand, runOptions, targetOptions, UsageError } from './cli-options.ts';
import { TargetStalled } from './failure.ts';
import { subcommand } from './subcommands.ts';
import type { ExploreModel } from './explore/explore.ts';
import type { SnapshotStore } from './snapshot/command.ts';
import type { ServedSnapshot } from './diff/command.ts';
import { loadTargetFile, TargetFileError } from './target-api/load.ts';
import { keepSecrets, print, printError } from './output.ts';
import { keysGiven } from './redaction.ts';
import { stoppedBy } from './run-verdict.ts';
import { renderReport } from './html/page.ts';
import { suiteView } from './html/suite-view.ts';

export interface CliOptions {
  target?: string;
  level: Level;
  failOnSkip?: boolean;
  baseUrl?: string;
  apiKey?: string;
  readonlyKey?: string;
  otherAccountKey?: string;
  inactiveKey?: string;
  destructive?: boolean;
  specOnly?: boolean;
  concurrency?: number;
  maxBodyBytes?: number;
  maxWalkItems?: number;
  requestTimeout?: number;
  settle?: number;
  junit?: string;
  json?: string;
  html?: string;
  viaPrism?: boolean;
  mock?: boolean;
  fault?: string;
}

function level(value: string): Level {
  if (value !== 'spec' && value !== 'profile')
    throw new InvalidArgumentError('must be spec or profile');
  return value;
}

/** The suite's options from `argv` and the environment; a usage error throws `UsageError`. */
export function parseSuiteOptions(argv: string[]): CliOptions {
  const env = process.env;
  const program = targetOptions(
    new Command('answers-contract').description(
      'Checks that an implementation of the Answers API honours the contract, clause by clause.',
    ),
    env,
    {
      baseUrl:
        'API root including its prefix, e.g. http://127.0.0.1:4010/api/answers/v1 (env ANSWERS_BASE_URL)',
      apiKey: 'a key with every permission (env ANSWERS_API_KEY)',
    },
  )
    .option(
      '--target <file>',
      'a target description (YAML or JSON): how the implementation realises what the spec leaves open; default: our openapi.yaml (env ANSWERS_CONTRACT_TARGET)',
      env.ANSWERS_CONTRACT_TARGET || undefined,
    )
    .option(
      '--level <level>',
      'spec: the exit status follows the rules the spec states; profile: also our openapi.yaml (env ANSWERS_CONTRACT_LEVEL)',
      level,
      (env.ANSWERS_CONTRACT_LEVEL || 'spec') as Level,
    )
    .option(
      '--fail-on-skip',
      'a skipped check at the chosen level fails the run (env ANSWERS_CONTRACT_FAIL_ON_SKIP=1)',
      flag('ANSWERS_CONTRACT_FAIL_ON_SKIP'),
    )
    .option(
      '--destructive',
      'allow checks that create and delete data; only data this run created is deleted (env ANSWERS_CONTRACT_DESTRUCTIVE=1)',
      flag('ANSWERS_CONTRACT_DESTRUCTIVE'),
    )
    .option('--junit <file>', 'write a JUnit XML report')
    .option('--json <file>', 'write a JSON report')
    .option(
      '--html <file>',
      'write the report as one self-contained HTML page (no network; the same data as --json)',
    )
    .option(
      '--via-prism',
      'send the traffic through `prism proxy openapi.yaml <target> --errors` (needs @stoplight/prism-cli)',
    )
    .option(
      '--mock',
      'start the bundled mock in-process on a free port and test it (no other option needed)',
    )
    .addHelpText(
      'after',
      "\nCommands:\n  init     probe the target and write a draft --target file (answers-contract init --help)\n  sweep    delete what earlier runs left behind (answers-contract sweep --help)\n  explore  random sequences compared with the kit's mock, shrunk to a minimal story (answers-contract explore --help)\n  replay   a recording of your tests (or a HAR) replayed against the target, judged against what they saw (answers-contract replay --help)\n  snapshot a deployment's data, read only, written as a state the mock loads (answers-contract snapshot --help)\n  diff     that snapshot in the mock, the same reads sent to both: where the deployment breaks the spec or the mock would mislead (answers-contract diff --help)" +
        '\n\nExit status: 0 a check at the chosen level passed, none failed (the rest skipped) and nothing was left behind; 1 a check failed, or data was left behind; 2 nothing judged (no check passed and none failed: the keys or operations it needed are named), usage error, bad target file, unreachable target, a target that stopped answering (--request-timeout), or a key refused in both header forms.',
    );
  runOptions(
    program,
    env,
    'checks (and requests) in flight at once; checks that walk whole lists run alone',
  );
  // @note A hidden flag for the kit's own tests: serve the mock with one deliberate defect.
  program.addOption(new Option('--fault <name>').hideHelp()).helpOption('-h, --help');
  // @note Kept for earlier CI lines: the same as --level spec, now the default.
  program.addOption(new Option('--spec-only').hideHelp());
  // @note Errors are printed once, by main's handler, as one line.
  if (!parseCommand(program, argv.slice(2))) process.exit(0);
  const options = program.opts<CliOptions>();
  if (!options.mock && !options.baseUrl)
    throw new UsageError('--base-url (or ANSWERS_BASE_URL) is required, or use --mock');
  if (!options.mock && !options.apiKey)
    throw new UsageError('--api-key (or ANSWERS_API_KEY) is required, or use --mock');
  if (options.fault && !options.mock) throw new UsageError('--fault only applies with --mock');
  return options;
}

/** A target the CLI starts itself (`--mock`), with the keys to test it with. */
export interface StartedTarget {
  baseUrl: string;
  keys: Partial<RunKeys>;
  stop(): Promise<void>;
}

/**
 * What the CLI is given by whoever assembles it: the suite knows nothing of the mock, so the
 * `--mock` target (the bundled mock, optionally with one deliberate defect) is passed in.
 */
export interface CliServices {
  startMock?: ((fault: string | undefined) => Promise<StartedTarget>) | undefined;
  /** The model `explore` compares with (the kit's mock), given by the bin. */
  startExploreModel?: (() => Promise<ExploreModel>) | undefined;
  /** The bundled mock's keys by role: how `replay` reads the keys of a HAR of the mock. */
  mockKeys?: (() => Promise<Partial<RunKeys>>) | undefined;
  /** The mock, started empty in process, that `snapshot` builds its state in. */
  startSnapshotStore?: (() => Promise<SnapshotStore>) | undefined;
  /** The mock loaded with a snapshot and served in process, that `diff` compares with. */
  serveSnapshot?: ((file: string) => Promise<ServedSnapshot>) | undefined;
}

async function main(argv: string[], services: CliServices): Promise<number> {
  const options = parseSuiteOptions(argv);
  const stops: Array<() => Promise<void>> = [];
  try {
    let baseUrl = options.baseUrl!;
    const keys = {
      full: options.apiKey!,
      readonly: options.readonlyKey,
      otherAccount: options.otherAccountKey,
      inactive: options.inactiveKey,
    };
    if (options.mock) {
      if (!services.startMock) throw new UsageError('--mock is not available in this build');
      const target = await services.startMock(options.fault);
      stops.push(target.stop);
      baseUrl = target.baseUrl;
      Object.assign(keys, target.keys);
    }
    let directUrl: string | undefined;
    if (options.viaPrism) {
      const { startPrismProxy, PrismMissingError } = await import('./prism-proxy.ts');
      const prism = await startPrismProxy(baseUrl).catch((error: unknown) => {
        throw error instanceof PrismMissingError ? new UsageError(error.message) : error;
      });
      stops.push(prism.stop);
      directUrl = baseUrl;
      baseUrl = prism.url;
    }
    const description = options.target ? await loadTargetFile(options.target) : undefined;
    const interruption = listenForInterrupt();
    stops.push(async () => interruption.dispose());
    const report: ContractReport = await runContract({
      signal: interruption.signal,
      baseUrl,
      directUrl,
      description,
      level: options.specOnly ? 'spec' : options.level,
      concurrency: options.concurrency,
      maxBodyBytes: options.maxBodyBytes,
      maxWalkItems: options.maxWalkItems,
      requestTimeoutMs: options.requestTimeout,
      settleMs: options.settle,
      failOnSkip: options.failOnSkip,
      keys,
      checks: CHECKS,
      destructive: options.destructive || options.mock,
      onResult: (result) => print(`${formatResult(result)}\n`),
    });
    return await endRun(report, {
      baseUrl: report.baseUrl,
      text: `\n${formatReport(report)}`,
      json: { file: options.json, value: report },
      junit: { file: options.junit, xml: () => toJUnit(report) },
      html: { file: options.html, page: (redacted) => renderReport(suiteView(redacted)) },
      interruptedBy: (signal) =>
        `Interrupted by ${signal}: ${report.interrupted!.notJudged.length} checks not judged.`,
      exitStatus: () => {
        // @note A run that judged nothing is a set-up to fix, not a verdict on the target.
        if (!report.nothingJudged) return report.failed ? 1 : 0;
        printError(`answers-contract: nothing judged: ${stoppedBy(report.nothingJudged)}\n`);
        return 2;
      },
    });
  } catch (error) {
    // @note An internal error after data was made, or a stalled target: what is left, and how
    // to delete it (after a stall always, as after a signal: "nothing" is news too).
    if (!(error instanceof RunEnded)) throw error;
    endedEarly(error, options.baseUrl ?? '', error.cause instanceof TargetStalled);
    throw error.cause;
  } finally {
    for (const stop of stops.reverse()) await stop();
  }
}

/** Runs `answers-contract` with `argv` and exits with its status (0, 1 or 2). */
export function runCli(argv: string[], services: CliServices = {}): Promise<never> {
  // @note Before any parsing: not even a usage error prints a key it was given.
  keepSecrets(keysGiven(argv, process.env));
  const name = argv[2];
  const run =
    name === 'init' || name === 'sweep'
      ? subcommand(name, argv)
      : name === 'explore'
        ? import('./explore/command.ts').then(({ exploreCommand }) => {
            if (!services.startExploreModel)
              throw new UsageError('explore is not available in this build (no model)');
            return exploreCommand(argv, services.startExploreModel);
          })
        : name === 'replay'
          ? import('./replay/command.ts').then(({ replayCommand }) => replayCommand(argv, services))
          : name === 'snapshot'
            ? import('./snapshot/command.ts').then(({ snapshotCommand }) => {
                if (!services.startSnapshotStore)
                  throw new UsageError('snapshot is not available in this build (no mock)');
                return snapshotCommand(argv, services.startSnapshotStore);
              })
            : name === 'diff'
              ? import('./diff/command.ts').then(({ diffCommand }) => {
                  if (!services.serveSnapshot)
                    throw new UsageError('diff is not available in this build (no mock)');
                  return diffCommand(argv, services.serveSnapshot);
                })
              : main(argv, services);
  return run.then(
    (code) => process.exit(code),
    (error: unknown) => {
      if (
        error instanceof UsageError ||
        error instanceof TargetError ||
        error instanceof TargetFileError ||
        error instanceof TargetStalled ||
        (error instanceof Error && error.name === 'ReplayFileError')
      ) {
        printError(`answers-contract: ${error.message}\n`);
        process.exit(2);
      }
      // @note One line, never a stack trace, unless asked for (ANSWERS_CONTRACT_DEBUG=1).
      const stack = process.env.ANSWERS_CONTRACT_DEBUG ? `\n${(error as Error).stack}` : '';
      printError(
        `answers-contract: internal error: ${(error as Error)?.message ?? String(error)}${stack}\n`,
      );
      process.exit(2);
    },
  );
}
