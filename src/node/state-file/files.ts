import { randomBytes } from 'node:crypto';
import { readFileSync, unlinkSync } from 'node:fs';
import {
  constants,
  access,
  open,
  readdir,
  readFile,
  stat,
  unlink,
  type FileHandle,
} from 'node:fs/promises';
import { hostname } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { StateFileError } from './read.ts';

/** Files next to a state file: its lock, and the temporary files a compaction writes. */
export class StateFilePaths {
  readonly dir: string;
  readonly lock: string;
  readonly #base: string;

  constructor(readonly file: string) {
    this.dir = dirname(file);
    this.#base = basename(file);
    this.lock = `${file}.lock`;
  }

  /**
   * A fresh temporary file beside the state file, so a rename replaces it atomically: created
   * exclusively (`wx`: an existing file or a planted symlink makes it fail rather than be
   * followed), with an unpredictable name, readable by the owner only (it holds every key).
   */
  async createTemporary(): Promise<{ path: string; handle: FileHandle }> {
    const path = join(this.dir, `.${this.#base}.${randomBytes(8).toString('hex')}.tmp`);
    return { path, handle: await open(path, 'wx', 0o600) };
  }

  /** Removes temporary files a killed process left behind (only ever called under the lock). */
  async removeStaleTemporaries(): Promise<void> {
    const prefix = `.${this.#base}.`;
    for (const name of await readdir(this.dir)) {
      if (name.startsWith(prefix) && /^[0-9a-f]{16}\.tmp$/.test(name.slice(prefix.length)))
        await unlink(join(this.dir, name)).catch(() => undefined);
    }
  }

  /** Makes a rename in the directory durable (where the platform allows opening a directory). */
  async syncDirectory(): Promise<void> {
    const handle = await open(this.dir, 'r').catch(() => undefined);
    if (!handle) return;
    await handle.sync().catch(() => undefined);
    await handle.close();
  }
}

/** Refuses a state file whose directory is missing or not writable: said at start, not later. */
export async function checkDirectory(paths: StateFilePaths): Promise<void> {
  const info = await stat(paths.dir).catch(() => undefined);
  if (!info?.isDirectory())
    throw new StateFileError(`the directory of the state file, ${paths.dir}, does not exist`);
  await access(paths.dir, constants.W_OK).catch(() => {
    throw new StateFileError(`the directory of the state file, ${paths.dir}, is not writable`);
  });
}

/**
 * Whether process `pid` still runs. `kill(pid, 0)` also succeeds for a zombie (a process that
 * ended and that its parent has not reaped yet, common in containers after a `kill -9`), so on
 * Linux its state in /proc is read too: `Z` (zombie) or `X` (dead) is gone.
 */
function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
  try {
    // @note /proc/<pid>/stat: "pid (comm) state ..."; comm may hold spaces and parentheses.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
    return state !== 'Z' && state !== 'X';
  } catch {
    return true; // no /proc (macOS, Windows): kill(pid, 0) is all there is
  }
}

/**
 * One mock per state file: two would each append their own changes and overwrite each other's
 * compactions. The lock is a file created exclusively, naming its process and host; a lock whose
 * process is gone (a `kill -9`, a crash) is taken over.
 * @returns a release function, also run when the process exits.
 */
export async function lockStateFile(paths: StateFilePaths): Promise<() => void> {
  const owner = `${process.pid} ${hostname()}\n`;
  for (let attempt = 0; ; attempt++) {
    try {
      const handle = await open(paths.lock, 'wx', 0o600);
      await handle.writeFile(owner);
      await handle.close();
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || attempt > 0) throw error;
      const [pid, host] = (await readFile(paths.lock, 'utf8').catch(() => '')).trim().split(' ');
      const stale = host === hostname() && Number(pid) > 0 && !isRunning(Number(pid));
      if (!stale)
        throw new StateFileError(
          `${paths.file} is in use by another answers-mock (process ${pid ?? '?'} on ${host ?? '?'}): stop it, or delete ${paths.lock} if that process is gone`,
        );
      await unlink(paths.lock).catch(() => undefined);
    }
  }
  let held = true;
  const release = () => {
    if (!held) return;
    held = false;
    process.off('exit', release);
    try {
      unlinkSync(paths.lock);
    } catch {
      // already gone
    }
  };
  process.once('exit', release);
  return release;
}
