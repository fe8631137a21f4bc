import { open, rename, truncate, unlink, type FileHandle } from 'node:fs/promises';
import type { MockState } from '../../core/store/mock-state.ts';
import type { StateChange } from '../../core/store/state-change.ts';
import { capture, writeCapture, type Capture } from './capture.ts';
import { changeLine } from './lines.ts';
import { checkDirectory, lockStateFile, StateFilePaths } from './files.ts';
import { readStateFile, type StateFileContents } from './read.ts';

/** Options of {@link StateJournal.open}. */
export interface JournalOptions {
  /** Told once, when the file can no longer be written. Default: a line on stderr. */
  onError?: ((error: Error) => void) | undefined;
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
 * - One process per file (a lock file), the directory checked at start, temporary files created
 *   exclusively with unpredictable names and mode 0600, stale ones removed.
 * If the file cannot be written the journal stops: `failure` says why, and the server refuses
 * writes instead of acknowledging what it cannot keep.
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

  private constructor(
    readonly paths: StateFilePaths,
    private readonly release: () => void,
    private readonly onError: (error: Error) => void,
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
    const paths = new StateFilePaths(file);
    await checkDirectory(paths);
    const release = await lockStateFile(paths);
    try {
      await paths.removeStaleTemporaries();
      const contents = await readStateFile(file);
      const journal = new StateJournal(
        paths,
        release,
        onError,
        options.compaction ?? { minBytes: 8 * 1024 * 1024, ratio: 1 },
      );
      return { journal, contents };
    } catch (error) {
      release();
      throw error;
    }
  }

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
      this.#handle = await open(this.paths.file, 'a', 0o600);
      await this.#handle.chmod(0o600);
      this.#compactedBytes = contents.validBytes;
    } else {
      await this.#rewrite(capture(state));
    }
    state.listen((change) => this.#record(change));
  }

  /** Resolves once every change made so far is on disk; rejects if it cannot be. */
  commit(): Promise<void> {
    if (this.#failure) return Promise.reject(this.#failure);
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
    await this.#handle?.close();
    this.#handle = undefined;
    this.release();
  }

  #record(change: StateChange): void {
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
      await this.#exclusive(async () => {
        await this.#handle!.write(text);
        await this.#handle!.datasync();
        this.#appendedBytes += Buffer.byteLength(text);
        this.#compaction?.job.tail.push(text);
      });
      this.#settle(upTo);
      this.#compactIfDue();
    }
  }

  #settle(seq: number): void {
    this.#durable = Math.max(this.#durable, seq);
    while (this.#waiters.length > 0 && this.#waiters[0]!.seq <= this.#durable)
      this.#waiters.shift()!.resolve();
  }

  #fail(error: unknown): void {
    this.#failure ??= error instanceof Error ? error : new Error(String(error));
    for (const waiter of this.#waiters.splice(0)) waiter.reject(this.#failure);
    this.onError(this.#failure);
  }

  /** File operations that must not interleave: an append, and the switch to a rewritten file. */
  #exclusive(task: () => Promise<void>): Promise<void> {
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
    let closed = false;
    let renamed = false;
    try {
      const bytes = await writeCapture(temporary.handle, state);
      await this.#exclusive(async () => {
        if (job?.cancelled) return;
        const tail = job ? job.tail.join('') : '';
        if (tail) await temporary.handle.write(tail);
        await temporary.handle.sync();
        await temporary.handle.close();
        closed = true;
        await rename(temporary.path, this.paths.file);
        renamed = true;
        await this.paths.syncDirectory();
        await this.#handle?.close();
        this.#handle = await open(this.paths.file, 'a', 0o600);
        this.#compactedBytes = bytes;
        this.#appendedBytes = Buffer.byteLength(tail);
      });
    } finally {
      if (!closed) await temporary.handle.close().catch(() => undefined);
      if (!renamed) await unlink(temporary.path).catch(() => undefined);
    }
  }
}
