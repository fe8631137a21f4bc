import { rename, truncate, unlink, type FileHandle } from 'node:fs/promises';
import type { MockState } from '../../core/store/mock-state.ts';
import type { StateChange } from '../../core/store/state-change.ts';
import { capture, writeCapture, type Capture } from './capture.ts';
import { cutLineNotice } from './cut-line.ts';
import { changeLine } from '../../core/snapshot/state-lines.ts';
import { identityOf, whatPathHolds, type FileIdentity } from './file-identity.ts';
import { checkDirectory, resolveStateFile, StateFilePaths, type OpenFile } from './files.ts';
import { lockStateFile, type LockOptions } from './lock.ts';
import { readStateFile, replayOpenFile, StateFileError, type StateFileContents } from './read.ts';
import { writeWhole } from './whole-write.ts';

/** Options of {@link StateJournal.open}. */
export interface JournalOptions {
  /**
   * Told once, when the file can no longer be written, after the changes it did not keep were
   * undone in memory. Default: a line on stderr.
   */
  onError?: ((error: Error) => void) | undefined;
  /** Told what the journal did on its own (a deleted file written again, a lock waited for). */
  onNotice?: ((message: string) => void) | undefined;
  /** How the lock is refreshed and judged (lock.ts). */
  lock?: Pick<LockOptions, 'refreshMs' | 'staleMs'> | undefined;
  /** How files are opened: a test passes a disk that fills up; otherwise `fs.promises.open`. */
  openFile?: OpenFile | undefined;
  /**
   * When to compact: once the appended lines reach `minBytes` and `ratio` times the compacted
   * part. Default 8 MiB and 1 (each byte of the state is rewritten about once per byte of
   * change, so a write costs its own size on average, and the file is at most about twice the
   * state). Tests set 0 and 0 to compact after every append.
   */
  compaction?: { minBytes: number; ratio: number } | undefined;
}

interface Compaction {
  /** Lines appended to the old file since the capture, to copy into the new one. */
  readonly tail: string[];
  cancelled: boolean;
}

/**
 * `--state-file`: a journal of the mock's changes, so a write costs its own line, not the state.
 *
 * - Every change is one line appended to the file (see lines.ts); `commit()` resolves once every
 *   change made so far is on disk (`fdatasync`). The server answers a write only after that, so a
 *   `kill -9` loses nothing it acknowledged. Concurrent writes share one sync (group commit).
 * - When the appended lines outweigh the compacted part, the file is rewritten as it stands (a
 *   base line and one line per record) into a new temporary file, beside the old one, while
 *   appends go on to the old file; the lines appended meanwhile are copied over, the temporary
 *   file is synced and renamed over the old one. Either name points at a complete file at every
 *   instant. A load or reset starts a new file the same way, and later writes wait for it.
 * - One process per file (a lock file, lock.ts), the directory checked at start, temporary files
 *   created exclusively with unpredictable names and mode 0600, stale ones removed. A symbolic
 *   link is followed first: the file it leads to is locked and replaced, the link stays.
 * - Before each append the file's name is checked to still lead to the file being written: a
 *   deleted file is written again from the state in memory (nothing acknowledged is lost); a file
 *   put in its place is someone else's, and is not written over (the journal stops).
 * If the file cannot be written (a full disk, a short write) the journal stops: the part of a
 * line that was written is cut off, the state in memory is set back to what the file holds (so no
 * change answered 507 stays), `failure` says why, and the server refuses writes from then on.
 */
export class StateJournal {
  #state: MockState | undefined;
  #handle: FileHandle | undefined;
  #seq = 0;
  #durable = 0;
  #pending: string[] = [];
  #replaceWith: { capture: Capture; seq: number } | undefined;
  #waiters: Array<{ seq: number; resolve: () => void; reject: (error: Error) => void }> = [];
  #pumping: Promise<void> | undefined;
  #io: Promise<unknown> = Promise.resolve();
  #compaction: { job: Compaction; done: Promise<void> } | undefined;
  #compactedBytes = 0;
  #appendedBytes = 0;
  #failure: Error | undefined;
  /** The bytes of the file that are whole lines and synced: what a failed write is cut back to. */
  #size = 0;
  #identity: FileIdentity | undefined;
  /** Undoing, in memory, changes the file did not keep (after a failure). */
  #undoing: Promise<void> = Promise.resolve();
  #undoQueued = false;

  private constructor(
    readonly paths: StateFilePaths,
    private readonly release: () => void,
    private readonly onError: (error: Error) => void,
    private readonly onNotice: (message: string) => void,
    private readonly compaction: { minBytes: number; ratio: number },
  ) {}

  /**
   * Checks the directory, takes the lock, removes stale temporary files and reads the file.
   * Throws a `StateFileError` (a usage error) when any of it fails.
   */
  static async open(
    file: string,
    options: JournalOptions = {},
  ): Promise<{ journal: StateJournal; contents: StateFileContents }> {
    const onError =
      options.onError ??
      ((error: Error) =>
        console.error(
          `answers-mock: cannot write the state file ${file}: ${error.message}; writes are refused from now on`,
        ));
    const onNotice =
      options.onNotice ?? ((message: string) => console.error(`answers-mock: ${message}`));
    const paths = new StateFilePaths(await resolveStateFile(file), options.openFile);
    await checkDirectory(paths);
    let journal: StateJournal | undefined;
    const release = await lockStateFile(paths, {
      ...options.lock,
      onNotice,
      onLost: (error) => {
        if (journal) journal.#fail(error);
      },
    });
    try {
      await paths.removeStaleTemporaries();
      const contents = await readStateFile(paths.file);
      if (contents.kind === 'lines' && contents.cut)
        onNotice(cutLineNotice(paths.file, contents.cut, contents.snapshot));
      journal = new StateJournal(
        paths,
        release,
        onError,
        onNotice,
        options.compaction ?? { minBytes: 8 * 1024 * 1024, ratio: 1 },
      );
      return { journal, contents };
    } catch (error) {
      release();
      throw error;
    }
  }

  /** The file written: the path given, its symbolic links followed. */
  get file(): string {
    return this.paths.file;
  }

  /** Why the file can no longer be written, once it cannot. */
  get failure(): Error | undefined {
    return this.#failure;
  }

  /**
   * Starts journaling `state`'s changes. A file already in this format is appended to (cut back
   * first to its last complete line); anything else (no file, a plain JSON snapshot) is replaced
   * by a compacted file of the state now.
   */
  async attach(state: MockState, contents: StateFileContents): Promise<void> {
    this.#state = state;
    if (contents.kind === 'lines') {
      await truncate(this.paths.file, contents.validBytes);
      // @note Opened to read as well: after a failed write, the state is read back from it.
      const handle = await this.paths.openFile(this.paths.file, 'a+', 0o600);
      await handle.chmod(0o600);
      await this.#write(handle, contents.validBytes);
      this.#compactedBytes = contents.validBytes;
    } else {
      await this.#rewrite(capture(state));
    }
    state.listen((change) => this.#record(change));
  }

  /**
   * Resolves once every change made so far is on disk; rejects if it cannot be, once the changes
   * the file did not keep are undone in memory.
   */
  commit(): Promise<void> {
    const failure = this.#failure;
    if (failure) return this.#undoing.then(() => Promise.reject(failure));
    const seq = this.#seq;
    if (seq <= this.#durable) return Promise.resolve();
    return new Promise((resolve, reject) => this.#waiters.push({ seq, resolve, reject }));
  }

  /** Resolves once every change made so far is on disk and no compaction is under way. */
  async settled(): Promise<void> {
    await this.commit();
    while (this.#compaction) await this.#compaction.done;
  }

  /** Writes what is pending, stops journaling and releases the lock. */
  async close(): Promise<void> {
    this.#state?.listen(undefined);
    while (this.#pumping) await this.#pumping;
    if (this.#compaction) {
      this.#compaction.job.cancelled = true;
      await this.#compaction.done;
    }
    await this.#undoing;
    await this.#handle?.close();
    this.#handle = undefined;
    this.release();
  }

  /** Writes to `handle` from now on, a file of `size` bytes of whole, synced lines. */
  async #write(handle: FileHandle, size: number): Promise<void> {
    this.#handle = handle;
    this.#size = size;
    this.#identity = await identityOf(handle);
  }

  #record(change: StateChange): void {
    // @note A write served while the journal failed (it was under way): undone like the others.
    if (this.#failure) return this.#queueUndo();
    const seq = ++this.#seq;
    if (change.type === 'replaced') {
      // @note The new state supersedes every line not yet written, and any compaction under way.
      this.#pending = [];
      if (this.#compaction) this.#compaction.job.cancelled = true;
      this.#replaceWith = { capture: capture(this.#state!), seq };
    } else {
      this.#pending.push(changeLine(change));
    }
    this.#kick();
  }

  #kick(): void {
    if (this.#pumping || this.#failure) return;
    this.#pumping = this.#pump()
      .catch((error: unknown) => this.#fail(error))
      .finally(() => {
        this.#pumping = undefined;
        if (this.#pending.length > 0 || this.#replaceWith) this.#kick();
      });
  }

  async #pump(): Promise<void> {
    for (;;) {
      if (this.#failure) return;
      const replace = this.#replaceWith;
      if (replace) {
        this.#replaceWith = undefined;
        await this.#rewrite(replace.capture);
        this.#settle(replace.seq);
        continue;
      }
      if (this.#pending.length === 0) return;
      const text = this.#pending.join('');
      const upTo = this.#seq;
      this.#pending = [];
      const appended = await this.#exclusive(() => this.#append(text));
      if (!appended) {
        this.onNotice(
          `the state file ${this.file} was deleted while the mock ran; it is written again from the mock's state`,
        );
        // @note The state now holds every change made so far: the lines not written are in it.
        this.#pending = [];
        if (this.#compaction) this.#compaction.job.cancelled = true;
        this.#replaceWith = { capture: capture(this.#state!), seq: this.#seq };
        continue;
      }
      this.#settle(upTo);
      this.#compactIfDue();
    }
  }

  #settle(seq: number): void {
    this.#durable = Math.max(this.#durable, seq);
    while (this.#waiters.length > 0 && this.#waiters[0]!.seq <= this.#durable)
      this.#waiters.shift()!.resolve();
  }

  /**
   * Appends lines, whole and synced, to the file its name still leads to; false when the file
   * was deleted (nothing written). A failed write is cut back to the last whole line.
   */
  async #append(text: string): Promise<boolean> {
    const handle = this.#handle!;
    const now = await whatPathHolds(this.paths.file, this.#identity!);
    if (now === 'gone') return false;
    if (now === 'replaced')
      throw new StateFileError(
        `${this.file} was replaced by another file while the mock ran, which the mock does not write over; restart it to continue from that file`,
      );
    const bytes = Buffer.from(text);
    try {
      await writeWhole(handle, bytes);
      await handle.datasync();
    } catch (error) {
      // @note Cut back, so that no start of a line is left for the next append to follow.
      await handle.truncate(this.#size).catch(() => undefined);
      throw error;
    }
    this.#size += bytes.length;
    this.#appendedBytes += bytes.length;
    this.#compaction?.job.tail.push(text);
    return true;
  }

  /** Stops the journal: undoes in memory what the file did not keep, then tells the waiters. */
  #fail(error: unknown): void {
    if (this.#failure) return;
    const failure = (this.#failure = error instanceof Error ? error : new Error(String(error)));
    this.#pending = [];
    this.#replaceWith = undefined;
    if (this.#compaction) this.#compaction.job.cancelled = true;
    this.#queueUndo();
    void this.#undoing.then(() => {
      for (const waiter of this.#waiters.splice(0)) waiter.reject(failure);
      this.onError(failure);
    });
  }

  /** Sets the state in memory back to what the file holds (once more, if already under way). */
  #queueUndo(): void {
    if (this.#undoQueued) return;
    this.#undoQueued = true;
    this.#undoing = this.#undoing.then(() => {
      this.#undoQueued = false;
      return this.#exclusive(() => this.#undo()).catch((error: unknown) =>
        this.onNotice(
          `could not read the state file ${this.file} back after a failed write (${(error as Error).message}); the mock's state may hold changes the file does not`,
        ),
      );
    });
  }

  async #undo(): Promise<void> {
    const state = this.#state;
    const handle = this.#handle;
    if (!state || !handle) return;
    const snapshot = await replayOpenFile(this.file, handle, this.#size);
    // @note Not listened to while loading: the file already holds this state.
    state.listen(undefined);
    try {
      await state.load(snapshot);
    } finally {
      state.listen((change) => this.#record(change));
    }
  }

  /** File operations that must not interleave: an append, and the switch to a rewritten file. */
  #exclusive<T>(task: () => Promise<T>): Promise<T> {
    const run = this.#io.then(task);
    this.#io = run.catch(() => undefined);
    return run;
  }

  /** Compacts once the appended lines outweigh the compacted part (so each byte is rewritten about once). */
  #compactIfDue(): void {
    if (this.#compaction || this.#failure || !this.#state) return;
    const { minBytes, ratio } = this.compaction;
    if (this.#appendedBytes < Math.max(minBytes, ratio * this.#compactedBytes)) return;
    const job: Compaction = { tail: [], cancelled: false };
    const done = this.#rewrite(capture(this.#state), job)
      .catch((error: unknown) => this.#fail(error))
      .finally(() => {
        if (this.#compaction?.job === job) this.#compaction = undefined;
      });
    this.#compaction = { job, done };
  }

  /**
   * Writes `state` to a new temporary file, then (unless cancelled) copies in the lines appended
   * since the capture, syncs it and renames it over the state file.
   */
  async #rewrite(state: Capture, job?: Compaction): Promise<void> {
    const temporary = await this.paths.createTemporary();
    let kept = false;
    let renamed = false;
    try {
      const bytes = await writeCapture(temporary.handle, state);
      await this.#exclusive(async () => {
        if (job?.cancelled) return;
        if (this.#failure) throw this.#failure;
        const tail = Buffer.from(job ? job.tail.join('') : '');
        await writeWhole(temporary.handle, tail);
        await temporary.handle.sync();
        await rename(temporary.path, this.paths.file);
        renamed = true;
        // @note The temporary file's handle goes on as the state file's: it is the file the
        // name now leads to, with no moment between in which another file could be opened.
        const old = this.#handle;
        kept = true;
        await this.#write(temporary.handle, bytes + tail.length);
        await this.paths.syncDirectory();
        await old?.close();
        this.#compactedBytes = bytes;
        this.#appendedBytes = tail.length;
      });
    } finally {
      if (!kept) await temporary.handle.close().catch(() => undefined);
      if (!renamed) await unlink(temporary.path).catch(() => undefined);
    }
  }
}
