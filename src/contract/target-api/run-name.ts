/**
 * The names a run gives what it creates, and how a later clean-up tells them apart from a user's.
 * Every name is `answers-contract-<run id>-<what>`: the run id is the run's start time in base 36
 * and 4 random characters, `<what>` one of the shapes below. `sweep` deletes a collection only when
 * its name member is one of these shapes as a whole, with a run time the kit could have written:
 * a user's `answers-contract-review-notes`, or a description quoting a run name, is never a match.
 */

const PREFIX = 'answers-contract-';

/** What follows the run id: a suite check's data, explore's (a rename's `r<n>`), a refused create's, a missing id. */
const WHAT =
  /^(?:t\d{1,6}-[a-z0-9][a-z0-9-]{0,40}|x\d{1,7}-(?:\d{1,7}|r\d{1,7}|odd)|refused-[a-z0-9-]{1,40}|none)$/;

/** Run ids: 8 or 9 base-36 digits of milliseconds (up to the year 5188), then 4 random ones. */
const RUN_ID = /^[0-9a-z]{12,13}$/;

/** No run of the kit started before this (2025-01-01T00:00:00Z): an older "run time" is a word. */
const FIRST_RUN_MS = Date.UTC(2025, 0, 1);

/** How far a run time may lie ahead of this machine's clock: two machines' clocks differ. */
const CLOCK_SKEW_MS = 60 * 60_000;

/** A run id: the start time in base 36 (so a sweep can tell its age), then 4 random characters. */
export function newRunId(started: number, random = Math.random()): string {
  const tail = Math.floor(random * 36 ** 4)
    .toString(36)
    .padStart(4, '0');
  return `${started.toString(36)}${tail}`;
}

/** The name of something a run creates. */
export function runName(runId: string, what: string): string {
  return `${PREFIX}${runId}-${what}`;
}

/** When a run started, from its id: the start time in base 36, then 4 random characters. */
export function runStartedAt(runId: string): number | undefined {
  if (!RUN_ID.test(runId)) return undefined;
  const ms = Number.parseInt(runId.slice(0, -4), 36);
  return Number.isSafeInteger(ms) ? ms : undefined;
}

/** A name the kit wrote, read back: its run and when that run started. */
export interface RunNameParts {
  runId: string;
  startedAt: number;
}

/**
 * The run a name belongs to, when the name as a whole has a shape the kit writes and its run time
 * is plausible (not before the kit existed, not ahead of `now` by more than clock skew). Anything
 * else, however much it resembles one, is a user's.
 */
export function parseRunName(name: unknown, now = Date.now()): RunNameParts | undefined {
  if (typeof name !== 'string' || !name.startsWith(PREFIX)) return undefined;
  const rest = name.slice(PREFIX.length);
  const dash = rest.indexOf('-');
  if (dash < 0) return undefined;
  const runId = rest.slice(0, dash);
  if (!WHAT.test(rest.slice(dash + 1))) return undefined;
  const startedAt = runStartedAt(runId);
  if (startedAt === undefined || startedAt < FIRST_RUN_MS || startedAt > now + CLOCK_SKEW_MS)
    return undefined;
  return { runId, startedAt };
}
