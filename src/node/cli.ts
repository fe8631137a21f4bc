import { randomBytes } from 'node:crypto';
import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import { maskApiKey } from '../core/api-key.ts';
import { isLoopbackName } from '../core/local-names.ts';
import type { Snapshot } from '../core/snapshot/snapshot.ts';
import { MAX_RECORDING_BYTES } from '../openapi/recording.ts';
import { DEV_KEYS } from '../seed/dev-keys.ts';
import { describeDocs } from './docs-site.ts';
import { checkRecordingPath, RecordingFileError } from './recording-file.ts';
import { StateFilePaths, resolveStateFile } from './state-file/files.ts';
import { StateJournal } from './state-file/journal.ts';
import { StateFileError } from './state-file/read.ts';
import { initialState, UsageError } from './start-data.ts';

/** An option that names a file: anything but nothing. */
function fileName(value: string): string {
  if (value.trim() === '') throw new InvalidArgumentError('must name a file');
  return value;
}

function integer(min: number, max: number, what: string) {
  return (value: string): number => {
    const n = Number(value);
    if (!/^\d+$/.test(value.trim()) || n < min || n > max) {
      throw new InvalidArgumentError(`${what} must be an integer from ${min} to ${max}.`);
    }
    return n;
  };
}

interface CliOptions {
  port: number;
  host: string;
  fixture?: string;
  empty?: boolean;
  seed?: number;
  size?: number;
  stateFile?: string;
  latency?: number;
  journalSize?: number;
  journalBodies?: boolean;
  control: boolean;
  allowedHosts?: string[];
  maxObjects?: number;
  maxStoredBytes?: number;
  maxStateBytes?: number;
  writeTimeout?: number;
  quiet?: boolean;
  record?: string;
  recordMaxBytes?: number;
  force?: boolean;
}

function keyTable(apiKeys: readonly Readonly<Snapshot['api_keys'][number]>[]): string {
  const dev = new Set(DEV_KEYS.map((k) => k.key));
  const rows = [
    ['key', 'account', 'permissions', 'active'],
    ...apiKeys.map((k) => [
      // @note Only the published dev keys are printed in full; a fixture's own keys are masked.
      dev.has(k.key) ? k.key : maskApiKey(k.key),
      k.account_id,
      k.permissions.join(','),
      k.active ? 'yes' : 'no',
    ]),
  ];
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((row) => row[i]!.length)));
  return rows
    .map((row) => `  ${row.map((cell, i) => cell.padEnd(widths[i]!)).join('  ')}`.trimEnd())
    .join('\n');
}

function parseArguments(argv: string[]): CliOptions {
  const program = new Command('answers-mock')
    .description('A stateful mock of the Answers API, with its reference at /docs.')
    .addOption(
      new Option('--port <n>', 'port to listen on (0: any free port)')
        .env('PORT')
        .default(4010)
        .argParser(integer(0, 65_535, 'port')),
    )
    .addOption(new Option('--host <h>', 'address to listen on').env('HOST').default('127.0.0.1'))
    .addOption(
      new Option('--fixture <file>', 'a state JSON file to start from').conflicts([
        'empty',
        'seed',
        'size',
      ]),
    )
    .addOption(
      new Option('--empty', 'no data, only the dev accounts and keys').conflicts(['seed', 'size']),
    )
    .addOption(
      new Option('--seed <n>', 'generate data deterministically from this seed').argParser(
        integer(0, 2 ** 31 - 1, 'seed'),
      ),
    )
    .addOption(
      new Option('--size <objects>', 'generate this many objects').argParser(
        integer(0, 1_000_000, 'size'),
      ),
    )
    .addOption(
      new Option(
        '--state-file <file>',
        'continue from this file if it exists (--empty, --fixture, --seed/--size: what to start from until it does); save every change to it before answering',
      ).argParser(fileName),
    )
    .addOption(
      new Option('--latency <ms>', 'delay every API response').argParser(
        integer(0, 600_000, 'latency'),
      ),
    )
    .addOption(
      new Option(
        '--journal-size <n>',
        'the API requests GET /__mock/requests keeps, the oldest dropped past it (default 10000; 0 keeps none)',
      ).argParser(integer(0, 1_000_000, 'journal-size')),
    )
    .option(
      '--journal-bodies',
      "keep each request's and answer's body in the journal too (cut to 4 KiB, keys by role)",
    )
    .option('--no-control', 'disable the control API under /__mock')
    .addOption(
      new Option(
        '--max-objects <n>',
        'the most objects API writes may bring the mock to (507 past it; default 2000000)',
      ).argParser(integer(1, 100_000_000, 'max-objects')),
    )
    .addOption(
      new Option(
        '--max-stored-bytes <n>',
        'the most stored JSON API writes may bring the mock to (507 past it; default 1 GiB)',
      ).argParser(integer(1, 2 ** 40, 'max-stored-bytes')),
    )
    .addOption(
      new Option(
        '--allowed-hosts <names>',
        'host names to answer besides loopback names and --host, comma-separated (* for any, on the API only)',
      ).argParser((value) => {
        const names = value
          .split(',')
          .map((name) => name.trim())
          .filter(Boolean);
        if (names.length === 0) throw new InvalidArgumentError('give at least one host name');
        return names;
      }),
    )
    .addOption(
      new Option(
        '--max-state-bytes <bytes>',
        'the largest state PUT /__mock/state accepts (default 268435456, 256 MiB)',
      ).argParser(integer(1, 512 * 1024 * 1024, 'max-state-bytes')),
    )
    .addOption(
      new Option(
        '--write-timeout <ms>',
        'close a connection whose client takes no more of a response for this long (default 30000)',
      ).argParser(integer(1, 3_600_000, 'write-timeout')),
    )
    .addOption(
      new Option(
        '--record <file>',
        'append every API exchange (keys by role, never by value) to this recording (JSON Lines), each written before it is answered (507 while it cannot be); an existing recording is continued',
      ).argParser(fileName),
    )
    .addOption(
      new Option(
        '--record-max-bytes <n>',
        `the largest --record file (507 past it; default ${MAX_RECORDING_BYTES}, 64 MiB, the most replay reads)`,
      ).argParser(integer(1024, MAX_RECORDING_BYTES, 'record-max-bytes')),
    )
    .option('--force', 'let --record replace an existing file that is not a recording')
    .option('--quiet', 'log no requests')
    .exitOverride()
    .configureOutput({
      outputError: (text, write) => write(`answers-mock: ${text.replace(/^error: /, '')}`),
    });
  try {
    return program.parse(argv).opts<CliOptions>();
  } catch (error) {
    if (error instanceof CommanderError) process.exit(error.exitCode === 0 ? 0 : 2);
    throw error;
  }
}

/** A `--record` file's trouble at start, as a usage error of one line. */
const recordingError =
  (file: string) =>
  (error: NodeJS.ErrnoException): never => {
    throw new UsageError(
      error instanceof RecordingFileError
        ? error.message
        : `--record ${file}: ${error.code ?? error.message}`,
    );
  };

/**
 * What `--record` is given, its file checked before anything is opened or written: never the
 * state file, its lock or the fixture; an existing file only if it is a recording, or `--force`.
 */
async function recordingOptions(options: CliOptions) {
  const forbidden: Array<{ path: string; what: string }> = [];
  if (options.stateFile) {
    const stateFile = await resolveStateFile(options.stateFile);
    forbidden.push(
      { path: stateFile, what: 'state file (--state-file)' },
      { path: new StateFilePaths(stateFile).lock, what: 'state file’s lock' },
    );
  }
  if (options.fixture) forbidden.push({ path: options.fixture, what: 'fixture (--fixture)' });
  const record = { forbidden, force: options.force, maxBytes: options.recordMaxBytes };
  await checkRecordingPath(options.record!, record).catch(recordingError(options.record!));
  return record;
}

async function main(argv: string[]): Promise<void> {
  // @note An empty PORT or HOST is unset, as in most servers, not an invalid value.
  for (const name of ['PORT', 'HOST']) if (process.env[name] === '') delete process.env[name];
  const options = parseArguments(argv);
  const record = options.record ? await recordingOptions(options) : undefined;
  // @note Opened (directory checked, lock taken) before anything else, so a second mock on the
  // same file, or a file in a missing directory, is refused at once.
  const saved = options.stateFile
    ? await StateJournal.open(options.stateFile).catch((error: unknown) => {
        throw error instanceof StateFileError ? new UsageError(error.message) : error;
      })
    : undefined;
  const { state, source, notice } = await initialState(options, saved?.contents);
  if (notice) console.error(`answers-mock: ${notice}`);
  // @note Loaded after the options are checked, so a usage error answers at once: the core
  // compiles openapi.yaml's schemas when it loads.
  const [{ assembleMock }, { SnapshotError }, { startServer }] = await Promise.all([
    import('../core/create-mock.ts'),
    import('../core/snapshot/snapshot.ts'),
    import('./server.ts'),
  ]);
  const { mock, state: mockState } = await assembleMock(state as Snapshot, {
    latencyMs: options.latency,
    journalSize: options.journalSize,
    journalBodies: options.journalBodies,
    maxObjects: options.maxObjects,
    maxStoredBytes: options.maxStoredBytes,
  }).catch((error: unknown) => {
    throw error instanceof SnapshotError ? new UsageError(`${source}: ${error.message}`) : error;
  });
  const journal = saved?.journal;
  await journal?.attach(mockState, saved!.contents);
  const recorder =
    options.record && record
      ? await (
          await import('./session-recording.ts')
        )
          .startSessionRecording(
            options.record,
            mock,
            () => mockState.store.apiKeys,
            () => [mockState.store, mockState.store.version],
            record,
          )
          .catch(recordingError(options.record))
      : undefined;
  // @note Beyond loopback other machines can reach the mock: say so, and guard the control API
  // (which can export every key and wipe the data) with a token only this terminal shows.
  const exposed = !isLoopbackName(options.host.includes(':') ? `[${options.host}]` : options.host);
  const controlToken =
    exposed && options.control ? randomBytes(24).toString('base64url') : undefined;
  const running = await startServer({
    mock: recorder?.mock ?? mock,
    host: options.host,
    port: options.port,
    control: options.control,
    maxStateBytes: options.maxStateBytes,
    allowedHosts: options.allowedHosts,
    controlToken,
    writeTimeoutMs: options.writeTimeout,
    quiet: options.quiet,
    persistence: journal,
  }).catch((error: NodeJS.ErrnoException) => {
    throw new Error(
      `cannot listen on ${options.host}:${options.port}: ${error.code ?? error.message}`,
    );
  });

  const { url } = running;
  // @note `*` lets a DNS-rebinding page reach the API (as any page may through CORS); the control
  // API answers such a name only with the token (server.ts), so without one it is named-only.
  if (options.allowedHosts?.includes('*'))
    console.error(
      `answers-mock: warning: --allowed-hosts * answers the API on any host name, so any web page can reach it through DNS rebinding.${
        !options.control
          ? ''
          : controlToken
            ? ' The control API answers other names only with the control token below.'
            : ' The control API still answers only loopback names, --host and the names you list.'
      }`,
    );
  if (exposed)
    console.error(
      `answers-mock: warning: listening on ${options.host}, so other machines can reach this mock and its dev keys.${
        controlToken
          ? ` The control API needs the header X-Answers-Mock-Token: ${controlToken}`
          : ''
      }`,
    );
  console.log(`Answers mock listening on ${url}
  API      ${url}/api/answers/v1  (aliases: ${url}/api/answers, ${url}/v1)
  Docs     ${url}/docs  (${describeDocs()})
  Inspect  ${options.control ? `${url}/__mock/ui${controlToken ? `#token=${controlToken}` : ''}  (requests live, data, controls)` : 'disabled (--no-control)'}
  Control  ${options.control ? `${url}/__mock${controlToken ? ' (token required, see the warning)' : ''}` : 'disabled (--no-control)'}
  Data     ${source}${journal ? `; changes saved to ${journal.file}` : ''}${recorder ? `\n  Record   API exchanges, appended to ${options.record} (each written before it is answered)` : ''}
Dev keys (public, for this mock only):
${keyTable(mockState.store.apiKeys)}`);

  const stop = async () => {
    await running.close();
    await journal?.close();
    await recorder?.close();
    console.log('stopped');
    process.exit(0);
  };
  process.once('SIGINT', () => void stop());
  process.once('SIGTERM', () => void stop());
}

/** Runs `answers-mock` with `argv`: serves until SIGINT or SIGTERM, or exits 2 on a usage error. */
export function runCli(argv: string[]): Promise<void> {
  return main(argv).catch((error: unknown) => {
    const message = error instanceof Error ? error.message : String(error);
    console.error(`answers-mock: ${message}`);
    process.exit(error instanceof UsageError ? 2 : 1);
  });
}
