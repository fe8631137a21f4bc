/**
 * One mock per state file: two would each append their own changes and overwrite each other's
 * compactions. The lock is `<file>.lock`, created exclusively, naming the process instance that
 * holds it (instance.ts). Whether a lock found at start is stale:
 *
 * - named by a process this mock can look up (the same boot and PID namespace; without /proc, the
 *   same host name): stale once that process is gone, a zombie, or another process with the
 *   same pid (its start time differs: a mock that was PID 1 in a container and restarts as PID 1).
 * - written on this host name in an earlier boot (another boot id): stale.
 * - otherwise (another host, or another container on a shared volume, or this container before a
 *   restart, which is another PID namespace): its holder touches it every `refreshMs`, so it is
 *   stale once untouched for `staleMs`. A mock that finds it touched more recently says so and
 *   waits out the rest; if it is touched meanwhile, its holder runs and the mock is refused.
 *   (Clocks of hosts sharing a volume are taken to agree within seconds.)
 */
import { readFileSync, unlinkSync } from 'node:fs';
import { open, readFile, stat, unlink, utimes } from 'node:fs/promises';
import type { StateFilePaths } from './files.ts';
import {
  isRunning,
  lockText,
  parseLock,
  startTimeOf,
  thisInstance,
  type ProcessInstance,
} from './instance.ts';
import { StateFileError } from './read.ts';

/** How a lock is kept fresh and judged; the defaults suit people, tests shorten them. */
export interface LockOptions {
  /** How often the holder touches its lock. Default 5 s. */
  refreshMs?: number | undefined;
  /** How long an untouched lock that cannot be checked otherwise stays live. Default 30 s. */
  staleMs?: number | undefined;
  /** Told what a start waits for. Default: a line on stderr. */
  onNotice?: ((message: string) => void) | undefined;
  /** Told once, when the lock is no longer this process's (deleted, or taken over). */
  onLost?: ((error: Error) => void) | undefined;
}

type Verdict = { stale: false } | { stale: true; why: string } | { stale: 'unchecked' };

/** Judges a lock by the process it names (see the rules at the top of this file). */
function judgeLock(holder: ProcessInstance, me: ProcessInstance): Verdict {
  const stale = (why: string): Verdict => ({ stale: true, why });
  if (holder.host === me.host && holder.boot && me.boot && holder.boot !== me.boot)
    return stale('this machine has restarted since');
  // @note Where the namespace cannot be read (a locked-down /proc), the host name stands for it.
  const sameNamespace =
    holder.pidNamespace === undefined && me.pidNamespace === undefined
      ? holder.host === me.host
      : holder.pidNamespace === me.pidNamespace;
  const canLookUp =
    holder.boot && me.boot ? holder.boot === me.boot && sameNamespace : holder.host === me.host;
  if (!canLookUp) return { stale: 'unchecked' };
  if (holder.pid === me.pid) {
    // @note This process takes no lock twice unless it opened the file twice (same start time).
    return holder.started !== undefined && holder.started === me.started
      ? { stale: false }
      : stale('its pid is this process’s own, so its process is gone');
  }
  if (!isRunning(holder.pid)) return stale('its process is gone');
  const started = startTimeOf(holder.pid);
  if (holder.started && started && holder.started !== started)
    return stale('its pid belongs to another process now');
  return { stale: false };
}

const inUse = (paths: StateFilePaths, holder: ProcessInstance | undefined, more = '') =>
  new StateFileError(
    `${paths.file} is in use by another answers-mock (process ${holder?.pid ?? '?'} on ${holder?.host ?? '?'})${more}: stop it, or delete ${paths.lock} if that process is gone`,
  );

/**
 * Whether a lock that cannot be checked is stale: untouched for `staleMs`, waiting out the rest
 * when it was touched more recently. Throws when it is touched meanwhile.
 */
async function untouched(
  paths: StateFilePaths,
  holder: ProcessInstance | undefined,
  staleMs: number,
  notice: (message: string) => void,
): Promise<boolean> {
  const before = await stat(paths.lock).catch(() => undefined);
  if (!before) return true;
  const age = Date.now() - before.mtimeMs;
  if (age >= staleMs) return true;
  // @note A lock dated in the future (a clock ahead of ours) waits the whole time, no more.
  const wait = Math.min(staleMs - age, staleMs);
  notice(
    `${paths.lock} names process ${holder?.pid ?? '?'} on ${holder?.host ?? '?'}, which this mock cannot look up (another host or container); waiting ${Math.ceil(wait / 1000)} s for it to refresh the lock before taking it over`,
  );
  await new Promise((resolve) => setTimeout(resolve, wait));
  const after = await stat(paths.lock).catch(() => undefined);
  if (after && after.mtimeMs !== before.mtimeMs)
    throw inUse(paths, holder, ', which refreshed its lock');
  return true;
}

/**
 * Takes the lock of a state file, taking over a stale one (see the rules at the top).
 * @returns a release function, also run when the process exits.
 */
export async function lockStateFile(
  paths: StateFilePaths,
  options: LockOptions = {},
): Promise<() => void> {
  const {
    refreshMs = 5_000,
    staleMs = 30_000,
    onNotice = (message: string) => console.error(`answers-mock: ${message}`),
    onLost,
  } = options;
  const me = thisInstance();
  const mine = lockText(me);
  for (let attempt = 0; ; attempt++) {
    try {
      const handle = await open(paths.lock, 'wx', 0o600);
      await handle.writeFile(mine);
      await handle.close();
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || attempt > 2) throw error;
      const found = await readFile(paths.lock, 'utf8').catch(() => undefined);
      if (found === undefined) continue; // released meanwhile
      const holder = parseLock(found);
      // @note A lock that does not parse is being written, or was cut short: judged by its age.
      const verdict = holder ? judgeLock(holder, me) : { stale: 'unchecked' as const };
      if (verdict.stale === false) throw inUse(paths, holder);
      if (verdict.stale === 'unchecked') await untouched(paths, holder, staleMs, onNotice);
      // @note Removed only if it still is the lock judged, not one another start just took.
      if ((await readFile(paths.lock, 'utf8').catch(() => undefined)) === found)
        await unlink(paths.lock).catch(() => undefined);
    }
  }

  let held = true;
  // @note Touched so that a mock that cannot look this process up (another container) sees it
  // runs; read first, so that a lock deleted or taken over is noticed rather than kept fresh.
  const refresh = async () => {
    const now = await readFile(paths.lock, 'utf8').catch(() => undefined);
    if (!held) return;
    if (now !== mine) {
      held = false;
      clearInterval(timer);
      const other = now === undefined ? undefined : parseLock(now);
      const what =
        now === undefined
          ? 'was deleted'
          : `was taken over${other ? ` by process ${other.pid} on ${other.host}` : ''}`;
      onLost?.(new Error(`its lock ${paths.lock} ${what}`));
      return;
    }
    const time = new Date();
    await utimes(paths.lock, time, time).catch(() => undefined);
  };
  const timer = setInterval(() => void refresh(), refreshMs);
  timer.unref();
  const release = () => {
    clearInterval(timer);
    process.off('exit', release);
    if (!held) return;
    held = false;
    try {
      if (readFileSync(paths.lock, 'utf8') === mine) unlinkSync(paths.lock);
    } catch {
      // already gone
    }
  };
  process.once('exit', release);
  return release;
}
