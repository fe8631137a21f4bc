import { writeFile } from 'node:fs/promises';
import { Command } from 'commander';
import { UsageError, url } from './cli-options.ts';
import { DEFAULT_DESCRIPTION } from './target/description.ts';
import { loadTargetFile } from './target/load.ts';

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
    )
    .exitOverride()
    .configureOutput({ outputError: () => undefined });
  if (name === 'init') {
    program
      .description('Probes the two paths the spec states and writes a draft target description.')
      .option('--out <file>', 'where to write it (default: print it)');
  } else {
    program
      .description(
        'Deletes what earlier contract runs left behind (collections named answers-contract-<run>-…), and nothing else.',
      )
      .requiredOption(
        '--older-than <duration>',
        'required: only runs that started at least this long ago, e.g. 1h, 30m, 2d',
      )
      .option(
        '--target <file>',
        'the target description (default: our openapi.yaml)',
        env.ANSWERS_CONTRACT_TARGET || undefined,
      )
      .option('--dry-run', 'list what would be deleted, delete nothing');
  }
  try {
    program.parse(argv.filter((_, i) => i !== 2));
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'commander.helpDisplayed') return 0;
    throw new UsageError((error as Error).message.replace(/^error: /, ''));
  }
  const options = program.opts<{
    baseUrl: string;
    apiKey: string;
    out?: string;
    olderThan?: string;
    target?: string;
    dryRun?: boolean;
  }>();
  if (name === 'init') {
    const { draftTarget } = await import('./init.ts');
    const text = await draftTarget(options.baseUrl, options.apiKey);
    if (options.out) {
      await writeFile(options.out, text);
      process.stderr.write(
        `wrote ${options.out}: read its comments, fix what is wrong, then run answers-contract --target ${options.out}\n`,
      );
    } else process.stdout.write(text);
    return 0;
  }
  const { parseDuration, sweep } = await import('./sweep.ts');
  const olderThanMs = parseDuration(options.olderThan!);
  if (olderThanMs === undefined)
    throw new UsageError('--older-than must be a duration such as 90s, 30m, 1h or 2d');
  const description = options.target ? await loadTargetFile(options.target) : DEFAULT_DESCRIPTION;
  const result = await sweep({
    baseUrl: options.baseUrl,
    key: options.apiKey,
    description,
    olderThanMs,
    dryRun: options.dryRun,
  });
  const verb = options.dryRun ? 'would delete' : 'deleted';
  process.stdout.write(
    `${verb} ${result.deleted.length}: ${result.deleted.join(', ') || '-'}\nkept (younger runs) ${result.kept.length}\n`,
  );
  if (result.failed.length > 0)
    process.stdout.write(`could not delete: ${result.failed.join(', ')}\n`);
  return result.failed.length > 0 ? 1 : 0;
}
