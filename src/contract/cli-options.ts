import { InvalidArgumentError, Option, type Command } from 'commander';
import { seconds } from './failure.ts';
import { LIMITS } from './limits.ts';

/** A usage or configuration error: exit status 2. */
export class UsageError extends Error {}

export function url(value: string): string {
  try {
    const parsed = new URL(value);
    if (!/^https?:$/.test(parsed.protocol)) throw new Error();
    return value.replace(/\/$/, '');
  } catch {
    throw new InvalidArgumentError('must be an http(s) URL');
  }
}

/** A boolean environment variable: 1, true, yes, on (any case) or 0, false, no, off, or empty. */
export function flag(name: string): boolean {
  const value = (process.env[name] ?? '').trim().toLowerCase();
  if (['1', 'true', 'yes', 'on'].includes(value)) return true;
  if (['', '0', 'false', 'no', 'off'].includes(value)) return false;
  throw new UsageError(
    `${name}=${process.env[name]} is not a boolean: use 1/true/yes or 0/false/no`,
  );
}

/**
 * The keys besides the full one, each optional (the checks, or steps, that need one are skipped
 * without it), from an option or the environment: the suite's and `explore`'s alike.
 */
function otherKeyOptions(command: Command, env: NodeJS.ProcessEnv): Command {
  return command
    .option(
      '--readonly-key <key>',
      'a key of the same account with read and search only (env ANSWERS_READONLY_KEY)',
      env.ANSWERS_READONLY_KEY,
    )
    .option(
      '--other-account-key <key>',
      'a key of another account (env ANSWERS_OTHER_ACCOUNT_KEY)',
      env.ANSWERS_OTHER_ACCOUNT_KEY,
    )
    .option(
      '--inactive-key <key>',
      'a revoked or inactive key (env ANSWERS_INACTIVE_KEY)',
      env.ANSWERS_INACTIVE_KEY,
    );
}

/**
 * The target and the keys a command runs with, `--base-url` and `--api-key` (from an option or
 * the environment) and the other keys: the suite's, `explore`'s and `replay`'s alike, each with
 * its own help text.
 */
export function targetOptions(
  command: Command,
  env: NodeJS.ProcessEnv,
  help: { baseUrl: string; apiKey: string; required?: boolean },
): Command {
  const baseUrl = env.ANSWERS_BASE_URL ? url(env.ANSWERS_BASE_URL) : undefined;
  if (help.required)
    command
      .requiredOption('--base-url <url>', help.baseUrl, url, baseUrl)
      .requiredOption('--api-key <key>', help.apiKey, env.ANSWERS_API_KEY);
  else
    command
      .option('--base-url <url>', help.baseUrl, url, baseUrl)
      .option('--api-key <key>', help.apiKey, env.ANSWERS_API_KEY);
  return otherKeyOptions(command, env);
}

/** A whole number from `min` to `max`, for an option. */
export function whole(min: number, max: number): (value: string) => number {
  return (value) => {
    const n = Number(value);
    if (!/^\d+$/.test(value.trim()) || n < min || n > max)
      throw new InvalidArgumentError(`must be a whole number from ${min} to ${max}`);
    return n;
  };
}

/** An environment variable that defaults a whole-number option (none: no default). */
function envWhole(name: string, min: number, max: number): number | undefined {
  const value = process.env[name];
  if (!value) return undefined;
  try {
    return whole(min, max)(value);
  } catch (error) {
    throw new UsageError(`${name}=${value}: ${(error as Error).message}`);
  }
}

/**
 * How a run sends, the suite's, `explore`'s and `replay`'s alike (the same names, ranges and
 * environment variables; `concurrency` says what runs side by side in this command):
 * `--concurrency`, `--settle`, `--max-body-bytes`, `--max-walk-items` and `--request-timeout`.
 */
export function runOptions(command: Command, env: NodeJS.ProcessEnv, concurrency: string): Command {
  return command
    .option(
      '--concurrency <n>',
      `${concurrency} (default 4; env ANSWERS_CONTRACT_CONCURRENCY)`,
      whole(1, 32),
      envWhole('ANSWERS_CONTRACT_CONCURRENCY', 1, 32),
    )
    .option(
      '--settle <ms>',
      "how long a write may take to show in a list, a search or a get after a delete: reads after writes are asked again until then; overrides the description's consistency windows (default: those, else 0; env ANSWERS_CONTRACT_SETTLE)",
      whole(0, 60_000),
      envWhole('ANSWERS_CONTRACT_SETTLE', 0, 60_000),
    )
    .option(
      '--max-body-bytes <n>',
      `the longest answer body read; a longer one fails what asked for it (default ${LIMITS.maxBodyBytes})`,
      whole(1_024, 2 ** 31),
    )
    .option(
      '--max-walk-items <n>',
      `the most items one walk of a list collects; a longer list's walk ends there and judges no rule about the whole list (default ${LIMITS.maxWalkItems})`,
      whole(1, 10_000_000),
    )
    .addOption(requestTimeoutOption(env));
}

/**
 * Parses `argv` (from its first option: the command's own words left out) into `program`: false
 * when it only printed its help; a usage error throws `UsageError`, one line.
 */
export function parseCommand(program: Command, argv: string[]): boolean {
  program.exitOverride().configureOutput({ outputError: () => undefined });
  try {
    program.parse(argv, { from: 'user' });
    return true;
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'commander.helpDisplayed' || code === 'commander.version') return false;
    throw new UsageError((error as Error).message.replace(/^error: /, ''));
  }
}

/** A per-request deadline: `10s`, `1500ms`, `1m`; from 100 ms to 10 minutes. */
function requestTimeout(text: string): number {
  const match = /^(\d+)\s*(ms|s|m)$/.exec(text.trim());
  const value = match ? Number(match[1]) * { ms: 1, s: 1_000, m: 60_000 }[match[2]!]! : NaN;
  if (!(value >= 100 && value <= 600_000))
    throw new InvalidArgumentError('must be a duration from 100ms to 10m, such as 10s or 1500ms');
  return value;
}

/**
 * `--request-timeout`, the suite's, `explore`'s and `replay`'s alike: how long one request may
 * take, its whole body read, before the target counts as stalled and the run ends.
 */
function requestTimeoutOption(env: NodeJS.ProcessEnv): Option {
  const fromEnv = env.ANSWERS_CONTRACT_REQUEST_TIMEOUT;
  const option = new Option(
    '--request-timeout <duration>',
    `how long one request may take, its whole answer read (default ${seconds(LIMITS.requestTimeoutMs).replace(' ', '')}); past it the target stalled: the run stops, cleans up within ${seconds(LIMITS.cleanupDeadlineMs)} and exits 2 (env ANSWERS_CONTRACT_REQUEST_TIMEOUT)`,
  ).argParser(requestTimeout);
  if (!fromEnv) return option;
  try {
    return option.default(requestTimeout(fromEnv));
  } catch (error) {
    throw new UsageError(
      `ANSWERS_CONTRACT_REQUEST_TIMEOUT=${fromEnv}: ${(error as Error).message}`,
    );
  }
}
