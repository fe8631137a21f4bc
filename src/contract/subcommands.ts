import { Command } from 'commander';
import { parseCommand, UsageError, url } from './cli-options.ts';
import { print, printError, writeText } from './output.ts';
import { TargetError } from './runner/run.ts';
import type { SweepMatch } from './sweep.ts';
import { DEFAULT_DESCRIPTION } from './target-api/description.ts';
import { loadTargetFile } from './target-api/load.ts';

/** `answers-contract init` and `answers-contract sweep`: their own options, their own exit status. */
export async function subcommand(name: string, argv: string[]): Promise<number> {
  const env = process.env;
  const program = new Command(`answers-contract ${name}`)
    .requiredOption(
      '--base-url <url>',
      'required: the root the target description is relative to (env ANSWERS_BASE_URL)',
      url,
      env.ANSWERS_BASE_URL ? url(env.ANSWERS_BASE_URL) : undefined,
    )
    .requiredOption(
      '--api-key <key>',
      'required: a key of the account (env ANSWERS_API_KEY)',
      env.ANSWERS_API_KEY,
    );
  if (name === 'init') {
    program
      .description('Probes the two paths the spec states and writes a draft target description.')
      .option('--out <file>', 'where to write it (default: print it)');
  } else {
    program
      .description(
        'Deletes what earlier contract runs left behind (collections named answers-contract-<run>-…), and nothing else.',
      )
      .option(
        '--older-than <duration>',
        'only runs that started at least this long ago, 1h or more, e.g. 1h, 2d (this or --run is required); a run still going on this machine is never swept, one on another machine only by its age: choose longer than your longest run',
      )
      .option(
        '--run <id>',
        "only this run's data, whatever its age (the line a run that left data prints), unless it is still going on this machine",
      )
      .option(
        '--target <file>',
        'the target description (default: our openapi.yaml)',
        env.ANSWERS_CONTRACT_TARGET || undefined,
      )
      .option(
        '--other-account-key <key>',
        "the other account's key, whose runs' data is swept too (env ANSWERS_OTHER_ACCOUNT_KEY)",
        env.ANSWERS_OTHER_ACCOUNT_KEY || undefined,
      )
      .option('--dry-run', 'list what would be deleted, delete nothing');
  }
  if (!parseCommand(program, argv.slice(3))) return 0;
  const options = program.opts<{
    baseUrl: string;
    apiKey: string;
    out?: string;
    olderThan?: string;
    run?: string;
    otherAccountKey?: string;
    target?: string;
    dryRun?: boolean;
  }>();
  if (name === 'init') {
    const { draftTarget } = await import('./init.ts');
    const text = await draftTarget(options.baseUrl, options.apiKey);
    if (options.out) {
      await writeText(options.out, text);
      printError(
        `wrote ${options.out}: read its comments, fix what is wrong, then run answers-contract --target ${options.out}\n`,
      );
    } else print(text);
    return 0;
  }
  const { explainMatch, parseDuration, sweep, SWEEP_FLOOR_MS } = await import('./sweep.ts');
  const { runStartedAt } = await import('./target-api/run-name.ts');
  if ((options.olderThan === undefined) === (options.run === undefined))
    throw new UsageError('sweep needs one of --older-than <duration> and --run <id>');
  const olderThanMs =
    options.olderThan === undefined ? undefined : parseDuration(options.olderThan);
  if (options.olderThan !== undefined && olderThanMs === undefined)
    throw new UsageError('--older-than must be a duration such as 90s, 30m, 1h or 2d');
  if (olderThanMs !== undefined && olderThanMs < SWEEP_FLOOR_MS)
    throw new UsageError(
      `--older-than ${options.olderThan} is shorter than ${SWEEP_FLOOR_MS / 3_600_000}h, the least sweep takes: a run still going on another machine would lose its data mid-run; --run <id> deletes one run's data once it has ended`,
    );
  if (options.run !== undefined && runStartedAt(options.run) === undefined)
    throw new UsageError(
      `--run ${JSON.stringify(options.run)} is not a run id (12 or 13 characters of 0-9 and a-z, as a run prints it)`,
    );
  const description = options.target ? await loadTargetFile(options.target) : DEFAULT_DESCRIPTION;
  // @note Each account's data is listed only to its own key: every key given is swept.
  const keys = [options.apiKey, options.otherAccountKey].filter(
    (key, i, all): key is string => key !== undefined && all.indexOf(key) === i,
  );
  const result = {
    deleted: [] as SweepMatch[],
    failed: [] as string[],
    kept: [] as string[],
    alive: [] as string[],
  };
  for (const key of keys) {
    const swept = await sweep({
      baseUrl: options.baseUrl,
      key,
      description,
      olderThanMs,
      runId: options.run,
      dryRun: options.dryRun,
    }).catch((error: unknown) => {
      throw new TargetError(`sweep: ${(error as Error).message}`);
    });
    result.deleted.push(...swept.deleted);
    result.failed.push(...swept.failed);
    result.kept.push(...swept.kept);
    result.alive.push(...swept.alive);
  }
  const verb = options.dryRun ? 'would delete' : 'deleted';
  const lines = [
    `${verb} ${result.deleted.length}${options.dryRun || result.deleted.length === 0 ? '' : `: ${result.deleted.map((m) => m.id).join(', ')}`}`,
    ...(options.dryRun ? result.deleted.map((match) => `  ${explainMatch(match)}`) : []),
    `kept (${options.run === undefined ? 'younger runs' : 'other runs'}) ${result.kept.length}`,
    ...(result.alive.length > 0
      ? [`kept (runs still going on this machine) ${result.alive.length}`]
      : []),
  ];
  print(`${lines.join('\n')}\n`);
  if (result.failed.length > 0) print(`could not delete: ${result.failed.join(', ')}\n`);
  return result.failed.length > 0 ? 1 : 0;
}
