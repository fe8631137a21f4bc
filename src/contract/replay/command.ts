/** `answers-contract replay <recording|har>`: its options, its output, its exit status. */
import { Command } from 'commander';
import { RECORDING_FORMAT, type KeyRole, type Recording } from '../../openapi/recording.ts';
import { DEFAULT_DESCRIPTION } from '../target-api/description.ts';
import { parseCommand, runOptions, targetOptions, UsageError } from '../cli-options.ts';
import { endedEarly, endRun, listenForInterrupt } from '../interrupt.ts';
import { keepSecrets } from '../output.ts';
import { RunEnded } from '../runner/run.ts';
import { loadTargetFile } from '../target-api/load.ts';
import type { Keys } from '../explore/comparison.ts';
import { readReplayFile } from './read-file.ts';
import { replay } from './replay.ts';
import { formatReplay, replayExitStatus, replayJUnit } from './replay-report.ts';
import { renderReport } from '../html/page.ts';
import { replayView } from '../html/replay-view.ts';

interface ReplayCliOptions {
  baseUrl?: string;
  apiKey?: string;
  readonlyKey?: string;
  otherAccountKey?: string;
  inactiveKey?: string;
  target?: string;
  recordedAgainst?: string;
  againstMock?: boolean;
  destructive?: boolean;
  strictCompatibility?: boolean;
  concurrency?: number;
  settle?: number;
  maxBodyBytes?: number;
  maxWalkItems?: number;
  requestTimeout?: number;
  json?: string;
  html?: string;
  junit?: string;
}

/** The role of a key value among `keys` (by the name each was given under). */
function rolesOf(...sets: Array<Partial<Keys> | undefined>): (key: string) => KeyRole {
  return (key) => {
    for (const keys of sets)
      for (const [role, value] of Object.entries(keys ?? {}))
        if (value === key) return role as KeyRole;
    return 'unknown';
  };
}

/** What the assembly gives `replay`: the bundled mock (for `--against-mock`) and its keys. */
export interface ReplayServices {
  startMock?:
    | ((
        fault: undefined,
      ) => Promise<{ baseUrl: string; keys: Partial<Keys>; stop(): Promise<void> }>)
    | undefined;
  /** The bundled mock's keys by role: how a HAR of the mock is read. */
  mockKeys?: (() => Promise<Partial<Keys>>) | undefined;
}

/** Runs `replay` with `argv` (`node answers-contract replay FILE ...`); returns the exit status. */
export async function replayCommand(argv: string[], services: ReplayServices): Promise<number> {
  const env = process.env;
  const program = targetOptions(
    new Command('answers-contract replay')
      .description(
        'Replays a recording of your tests against the mock (setupAnswersServer({ record }), answers-mock --record) or a HAR file against the target, each consumer test in order, and judges every answer against the one your tests saw, clause by clause. Writes: only with --destructive.',
      )
      .argument(
        '<files...>',
        'recordings (answers-recording/1) or HAR 1.2 files: their consumer tests, in order',
      ),
    env,
    {
      baseUrl: 'the target’s root (env ANSWERS_BASE_URL); not with --against-mock',
      apiKey: 'a key with every permission (env ANSWERS_API_KEY)',
    },
  )
    .option(
      '--target <file>',
      'the target description (default: our openapi.yaml); with --against-mock: the deployment the HAR was recorded against',
      env.ANSWERS_CONTRACT_TARGET || undefined,
    )
    .option(
      '--recorded-against <file>',
      'the description of what a HAR was recorded against (default: our openapi.yaml, the kit’s mock)',
    )
    .option(
      '--against-mock',
      'replays a HAR of a deployment’s traffic against the kit’s own mock, started in-process: where the mock answers otherwise',
    )
    .option('--destructive', 'replays the tests that write (only data the run creates is deleted)')
    .option(
      '--strict-compatibility',
      'fails the run on a compatibility note: what a test relies on that the target decides otherwise where the spec leaves it open (a page size past its limit, another status for the same absence)',
    )
    .option('--json <file>', 'writes the report as JSON')
    .option(
      '--html <file>',
      'writes the report as one self-contained HTML page (no network; the same data as --json)',
    )
    .option('--junit <file>', 'writes a JUnit XML report: a test case per consumer test')
    .addHelpText(
      'after',
      '\nExit status: 0 every replayed test agreed, every file had an exchange judged, and nothing was left behind; 1 a test diverged, data was left behind, or (--strict-compatibility) a compatibility note was made; 2 usage error, a file replay cannot read, an unreachable target, one that answers nothing at the description’s paths, one that stopped answering (--request-timeout), or a file none of whose exchanges could be judged (it says why: a key not given, an operation the description lacks, writes without --destructive).',
    );
  runOptions(program, env, 'consumer tests replayed side by side');
  if (!parseCommand(program, argv.slice(3))) return 0;
  const options = program.opts<ReplayCliOptions>();
  const files = program.args;
  const given: Partial<Keys> = {
    ...(options.apiKey ? { full: options.apiKey } : {}),
    ...(options.readonlyKey ? { readonly: options.readonlyKey } : {}),
    ...(options.otherAccountKey ? { otherAccount: options.otherAccountKey } : {}),
    ...(options.inactiveKey ? { inactive: options.inactiveKey } : {}),
  };
  const stops: Array<() => Promise<void>> = [];
  let baseUrl = options.baseUrl;
  try {
    let keys = given;
    let description = options.target ? await loadTargetFile(options.target) : undefined;
    let recordedAgainst = options.recordedAgainst
      ? await loadTargetFile(options.recordedAgainst)
      : undefined;
    const mockKeys = services.mockKeys ? await services.mockKeys() : undefined;
    if (options.againstMock) {
      if (options.baseUrl && env.ANSWERS_BASE_URL !== options.baseUrl)
        throw new UsageError('--against-mock replays against the kit’s mock: leave out --base-url');
      if (options.recordedAgainst)
        throw new UsageError(
          'with --against-mock, --target describes what the HAR was recorded against',
        );
      if (!services.startMock)
        throw new UsageError('--against-mock is not available in this build');
      const mock = await services.startMock(undefined);
      stops.push(mock.stop);
      baseUrl = mock.baseUrl;
      keys = mock.keys;
      recordedAgainst = description;
      description = undefined;
    } else {
      if (!baseUrl)
        throw new UsageError('--base-url (or ANSWERS_BASE_URL) is required, or use --against-mock');
      if (!options.apiKey) throw new UsageError('--api-key (or ANSWERS_API_KEY) is required');
    }
    // @note A HAR's keys are values: each is the role of the run's key, or the mock's, it equals.
    const reading = {
      description: recordedAgainst ?? DEFAULT_DESCRIPTION,
      roleOf: rolesOf(given, mockKeys),
      presented: (key: string) => keepSecrets([{ label: 'key of the HAR', value: key }]),
    };
    const recording: Recording = { format: RECORDING_FORMAT, sequences: [] };
    const tests: Array<{ file: string; tests: number }> = [];
    for (const file of files) {
      const { sequences } = await readReplayFile(file, reading);
      recording.sequences.push(...sequences);
      tests.push({ file, tests: sequences.length });
    }
    const interruption = listenForInterrupt();
    stops.push(async () => interruption.dispose());
    const report = await replay({
      baseUrl: baseUrl!,
      keys: keys as Keys,
      recording,
      files: tests,
      description,
      recordedAgainst,
      destructive: options.destructive || options.againstMock,
      strictCompatibility: options.strictCompatibility,
      recordedBy: options.againstMock ? 'the deployment' : undefined,
      concurrency: options.concurrency,
      settleMs: options.settle,
      maxBodyBytes: options.maxBodyBytes,
      maxWalkItems: options.maxWalkItems,
      requestTimeoutMs: options.requestTimeout,
      signal: interruption.signal,
    });
    return await endRun(report, {
      baseUrl: report.baseUrl,
      text: formatReplay(report),
      json: { file: options.json, value: report },
      junit: { file: options.junit, xml: () => replayJUnit(report) },
      html: { file: options.html, page: (redacted) => renderReport(replayView(redacted)) },
      interruptedBy: (signal) => `Interrupted by ${signal}.`,
      exitStatus: () => replayExitStatus(report),
    });
  } catch (error) {
    // @note An internal error after data was made: what is left, and how to delete it.
    if (!(error instanceof RunEnded)) throw error;
    endedEarly(error, baseUrl ?? '', true);
    throw error.cause;
  } finally {
    for (const stop of stops.reverse()) await stop();
  }
}
