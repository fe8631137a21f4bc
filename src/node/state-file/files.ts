import { randomBytes } from 'node:crypto';
import {
  constants,
  access,
  open,
  readdir,
  readlink,
  realpath,
  rm,
  stat,
  unlink,
  type FileHandle,
} from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { StateFileError } from './read.ts';

/** How the state file's files are opened: `fs.promises.open`, or a test's disk that fills up. */
export type OpenFile = (path: string, flags: string, mode?: number) => Promise<FileHandle>;

/** Files next to a state file: its lock, and the temporary files a compaction writes. */
export class StateFilePaths {
  readonly dir: string;
  readonly lock: string;
  readonly #base: string;

  /** @param file The state file with its symbolic links resolved (see {@link resolveStateFile}). */
  constructor(
    readonly file: string,
    readonly openFile: OpenFile = open,
  ) {
    this.dir = dirname(file);
    this.#base = basename(file);
    this.lock = `${file}.lock`;
  }

  /**
   * A fresh temporary file beside the state file, so a rename replaces it atomically: created
   * exclusively (`ax+`: an existing file or a planted symlink makes it fail rather than be
   * followed), with an unpredictable name, readable by the owner only (it holds every key).
   * Opened to append and read, so that once renamed it is the state file's handle as it is.
   */
  async createTemporary(): Promise<{ path: string; handle: FileHandle }> {
    const path = join(this.dir, `.${this.#base}.${randomBytes(8).toString('hex')}.tmp`);
    return { path, handle: await this.openFile(path, 'ax+', 0o600) };
  }

  /**
   * Removes temporary files a killed process left behind (only ever called under the lock), and
   * the directories a start killed while it took the lock prepared (lock.ts).
   */
  async removeStaleTemporaries(): Promise<void> {
    const prefix = `.${this.#base}.`;
    for (const name of await readdir(this.dir)) {
      if (!name.startsWith(prefix)) continue;
      const rest = name.slice(prefix.length);
      if (/^[0-9a-f]{16}\.tmp$/.test(rest))
        await unlink(join(this.dir, name)).catch(() => undefined);
      // @note A start racing this one may be preparing one now: it prepares it again (lock.ts).
      else if (/^lock\.[0-9a-f]{16}$/.test(rest))
        await rm(join(this.dir, name), { recursive: true, force: true }).catch(() => undefined);
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
 * The file a state file path names, its symbolic links followed (even one whose target does not
 * exist yet) and its directory's too: so a compaction renames the new file over the target and
 * the link stays a link, and two links to one file share one lock.
 */
export async function resolveStateFile(file: string): Promise<string> {
  let path = resolve(file);
  // @note 40 links, as Linux follows, before a loop is given up on.
  for (let links = 0; links < 40; links++) {
    const target = await readlink(path).catch(() => undefined); // not a link, or no file yet
    if (target === undefined) break;
    path = resolve(dirname(path), target);
  }
  const dir = await realpath(dirname(path)).catch(() => dirname(path)); // checked later
  return join(dir, basename(path));
}
