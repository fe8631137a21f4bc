/**
 * One mock per state file: two would each append their own changes and overwrite each other's
 * compactions. The lock is the directory `<file>.lock`, holding one file named at random for the
 * process instance that holds it (instance.ts) and naming it. Whether a holder found at start
 * is stale:
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
 *
 * Why a directory (issue 46: two mocks started together on a stale lock both ran, 1 in 50 times,
 * and half the acknowledged creates were lost). A lock file is taken with an exclusive create,
 * but taking over a stale one means removing or replacing whatever the name holds *now*, which
 * may be the lock another start took a moment ago; renaming a fresh file over it and reading it
 * back does not help either (two starts that judged the same stale lock each read back their
 * own). A directory gives the two conditional steps a file lacks:
 *
 * - a start takes the lock by renaming a directory it prepared (holding its own file) to
 *   `<file>.lock`, which succeeds only if that name is free or an empty directory;
 * - a stale holder is removed by unlinking its own file inside, by its random name, which can
 *   never be the file of another holder; the empty directory left is free to take.
 *
 * So the lock holds at most one holder's file at any instant, and a start runs only once its
 * rename succeeded: two starts never both run, however their steps interleave (each start then
 * retries from the top and judges whatever holder it finds). A lock file of earlier versions is
 * judged the same way and removed with unlink, which never removes a directory.
 */
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync, rmdirSync, unlinkSync } from 'node:fs';
import {
  lstat,
  mkdir,
  readdir,
  readFile,
  rename,
  rm,
  rmdir,
  stat,
  unlink,
  utimes,
  writeFile,
} from 'node:fs/promises';
import { basename, join } from 'node:path';
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
    `${paths.file} is in use by another answers-mock (process ${holder?.pid ?? '?'} on ${holder?.host ?? '?'})${more}: stop it, or delete the directory ${paths.lock} if that process is gone`,
  );

/**
 * Whether a holder's file that cannot be checked is stale: untouched for `staleMs`, waiting out
 * the rest when it was touched more recently. Throws when it is touched meanwhile.
 */
async function untouched(
  paths: StateFilePaths,
  path: string,
  holder: ProcessInstance | undefined,
  staleMs: number,
  notice: (message: string) => void,
): Promise<void> {
  const before = await stat(path).catch(() => undefined);
  if (!before) return;
  const age = Date.now() - before.mtimeMs;
  if (age >= staleMs) return;
  // @note A lock dated in the future (a clock ahead of ours) waits the whole time, no more.
  const wait = Math.min(staleMs - age, staleMs);
  notice(
    `${paths.lock} names process ${holder?.pid ?? '?'} on ${holder?.host ?? '?'}, which this mock cannot look up (another host or container); waiting ${Math.ceil(wait / 1000)} s for it to refresh the lock before taking it over`,
  );
  await new Promise((resolve) => setTimeout(resolve, wait));
  const after = await stat(path).catch(() => undefined);
  if (after && after.mtimeMs !== before.mtimeMs)
    throw inUse(paths, holder, ', which refreshed its lock');
}

/** Judges the holder `path` names; returns once it is stale, throws while it is live. */
async function judgeHolder(
  paths: StateFilePaths,
  path: string,
  me: ProcessInstance,
  staleMs: number,
  notice: (message: string) => void,
): Promise<'stale' | 'gone'> {
  const found = await readFile(path, 'utf8').catch(() => undefined);
  if (found === undefined) return 'gone'; // released or taken over meanwhile
  const holder = parseLock(found);
  // @note A holder's file that does not parse was damaged (or cut short by a power loss): judged by its age.
  const verdict = holder ? judgeLock(holder, me) : { stale: 'unchecked' as const };
  if (verdict.stale === false) throw inUse(paths, holder);
  if (verdict.stale === 'unchecked') await untouched(paths, path, holder, staleMs, notice);
  return 'stale';
}

/**
 * Clears the way to the lock when its holder is stale (or there is none); throws while a holder
 * is live. Each step removes only what was judged: a holder's file by its own name, an empty
 * directory (rmdir fails on any other), a lock file of earlier versions (unlink fails on a
 * directory, so it never removes a lock taken meanwhile).
 */
async function clearStale(
  paths: StateFilePaths,
  me: ProcessInstance,
  staleMs: number,
  notice: (message: string) => void,
): Promise<void> {
  const info = await lstat(paths.lock).catch(() => undefined);
  if (!info) return; // released meanwhile
  if (!info.isDirectory()) {
    if ((await judgeHolder(paths, paths.lock, me, staleMs, notice)) === 'stale')
      await unlink(paths.lock).catch(() => undefined);
    return;
  }
  const names = await readdir(paths.lock).catch(() => []);
  if (names.length === 0) await rmdir(paths.lock).catch(() => undefined);
  for (const name of names) {
    const path = join(paths.lock, name);
    if ((await judgeHolder(paths, path, me, staleMs, notice)) === 'stale')
      await unlink(path).catch(() => undefined);
  }
}

/** The errors a rename to a lock that is taken gives (POSIX, macOS, Windows). */
const TAKEN = new Set(['EEXIST', 'ENOTEMPTY', 'ENOTDIR', 'EISDIR', 'EPERM', 'EACCES']);

/** The holder named in a lock directory, if any: who took it over. */
function holderIn(lock: string): ProcessInstance | undefined {
  try {
    const [name] = readdirSync(lock);
    return name === undefined ? undefined : parseLock(readFileSync(join(lock, name), 'utf8'));
  } catch {
    return undefined;
  }
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
  const name = randomBytes(8).toString('hex');
  const own = join(paths.lock, name);
  // @note Prepared beside the lock (the same file system, so the rename is atomic), named so
  // that no other start's can be the same, readable by the owner only.
  const prepared = join(paths.dir, `.${basename(paths.lock)}.${name}`);
  for (let attempt = 0; ; attempt++) {
    await mkdir(prepared, { mode: 0o700 });
    try {
      await writeFile(join(prepared, name), mine, { mode: 0o600, flag: 'wx' });
      await rename(prepared, paths.lock);
      break;
    } catch (error) {
      await rm(prepared, { recursive: true, force: true });
      const code = (error as NodeJS.ErrnoException).code ?? '';
      // @note ENOENT: the prepared directory was removed as stale by the start that holds the
      // lock (files.ts); prepared again, that start is then found.
      if (!TAKEN.has(code) && code !== 'ENOENT') throw error;
      // @note Each turn follows a step of another start (a lock taken, released or cleared):
      // a few turns means starts keep racing; the last one's error then says so.
      if (attempt >= 8) throw inUse(paths, holderIn(paths.lock), ', or another start is taking it');
      if (code === 'ENOENT') continue;
      const before = await lstat(paths.lock).catch(() => undefined);
      // @note The name is free, yet the rename failed: not a lock taken but a real error.
      if (!before && (code === 'EPERM' || code === 'EACCES')) throw error;
      await clearStale(paths, me, staleMs, onNotice);
    }
  }

  let held = true;
  // @note Touched so that a mock that cannot look this process up (another container) sees it
  // runs; read first, so that a lock deleted or taken over is noticed rather than kept fresh.
  const refresh = async () => {
    const now = await readFile(own, 'utf8').catch(() => undefined);
    if (!held) return;
    if (now !== mine) {
      held = false;
      clearInterval(timer);
      const other = holderIn(paths.lock);
      const what = other
        ? `was taken over by process ${other.pid} on ${other.host}`
        : now === undefined
          ? 'was deleted'
          : 'was taken over';
      onLost?.(new Error(`its lock ${paths.lock} ${what}`));
      return;
    }
    const time = new Date();
    await utimes(own, time, time).catch(() => undefined);
  };
  const timer = setInterval(() => void refresh(), refreshMs);
  timer.unref();
  const release = () => {
    clearInterval(timer);
    process.off('exit', release);
    if (!held) return;
    held = false;
    try {
      unlinkSync(own);
      // @note Fails if another start took the lock meanwhile, as it may once it is empty.
      rmdirSync(paths.lock);
    } catch {
      // already gone, or taken
    }
  };
  process.once('exit', release);
  return release;
}
