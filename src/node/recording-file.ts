/**
 * The file `answers-mock --record` appends to (the lines form of a recording, see
 * `RECORDING_LINES_FORMAT`): checked at start, then one line per exchange, written before the
 * promise of its append resolves, and synced (`fdatasync`) first when it asks to be. A file is
 * only ever appended to, never rewritten, so an exchange costs its own line, however long the
 * session.
 */
import { randomBytes } from 'node:crypto';
import { constants, lstat, open, rename, stat, unlink, type FileHandle } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { RECORDING_FORMAT, RECORDING_LINES_FORMAT } from '../openapi/recording.ts';
import { resolveStateFile } from './state-file/files.ts';

/** How the file is opened: `fs.promises.open`, or a test's disk that fills up. */
type OpenRecording = (path: string, flags: string | number, mode?: number) => Promise<FileHandle>;

/** A `--record` file refused at start (a usage error: exit 2, this one line). */
export class RecordingFileError extends Error {
  override name = 'RecordingFileError';
}

/** A write refused because the recording is at its bound (`--record-max-bytes`, or exchanges). */
export class RecordingFullError extends Error {
  override name = 'RecordingFullError';
}

/** The first line of every recording of the lines form. */
const HEADER = `${JSON.stringify({ format: RECORDING_LINES_FORMAT })}\n`;

/** Options of {@link openRecordingFile}. */
export interface RecordingFileOptions {
  /** The most bytes the file may reach. */
  maxBytes: number;
  /** The most exchange lines it may hold. */
  maxExchanges: number;
  /** Replace an existing file that is not a recording of the lines form. */
  force?: boolean | undefined;
  /**
   * Files the recording must never be, whatever `force` says: the state file and its lock, the
   * fixture. Compared with their symbolic links followed, and by identity when they exist.
   */
  forbidden?: ReadonlyArray<{ path: string; what: string }> | undefined;
  openFile?: OpenRecording | undefined;
}

/** How much of a file's start is read to tell what it holds. */
const SNIFF_BYTES = 256;

async function identity(path: string): Promise<string | undefined> {
  const info = await stat(path).catch(() => undefined);
  return info ? `${info.dev}:${info.ino}` : undefined;
}

/** What an existing, non-empty file is, from its first bytes. */
async function kindOf(path: string): Promise<'lines' | 'document' | 'other'> {
  const handle = await open(path, constants.O_RDONLY | constants.O_NOFOLLOW);
  try {
    const { buffer, bytesRead } = await handle.read(Buffer.alloc(SNIFF_BYTES), 0, SNIFF_BYTES, 0);
    const start = buffer.subarray(0, bytesRead).toString('utf8');
    if (start.startsWith(HEADER)) return 'lines';
    // @note The one-document form (`setupAnswersServer`'s, and `--record`'s before the lines
    // form): a recording still, but one that cannot be appended to.
    if (new RegExp(`^\\s*\\{\\s*"format"\\s*:\\s*"${RECORDING_FORMAT}"`).test(start))
      return 'document';
    return 'other';
  } finally {
    await handle.close();
  }
}

/**
 * Counts the exchange lines of a recording of the lines form, and cuts off a line a killed
 * process left half-written (its exchange was never answered: each is answered once written).
 */
async function existingLines(path: string): Promise<{ size: number; exchanges: number }> {
  const handle = await open(path, constants.O_RDWR | constants.O_NOFOLLOW);
  try {
    const chunk = Buffer.alloc(1024 * 1024);
    let lines = 0;
    let position = 0;
    let end = 0;
    for (;;) {
      const { bytesRead } = await handle.read(chunk, 0, chunk.length, position);
      if (bytesRead === 0) break;
      for (let i = chunk.indexOf(10); i !== -1 && i < bytesRead; i = chunk.indexOf(10, i + 1)) {
        lines += 1;
        end = position + i + 1;
      }
      position += bytesRead;
    }
    if (end < position) await handle.truncate(end);
    return { size: end, exchanges: lines - 1 };
  } finally {
    await handle.close();
  }
}

/**
 * Writes a new recording (its first line only) at `path` through a temporary file beside it:
 * an unpredictable name, created exclusively (a planted file or symbolic link makes it fail
 * rather than be followed), readable by the owner only, removed if anything fails; then renamed
 * over `path`, so `path` holds either what it held or a whole new recording.
 */
async function writeNew(path: string, openFile: OpenRecording): Promise<void> {
  const temporary = join(dirname(path), `.${basename(path)}.${randomBytes(8).toString('hex')}.tmp`);
  const handle = await openFile(temporary, 'wx', 0o600);
  try {
    try {
      await handle.write(HEADER);
      await handle.datasync();
    } finally {
      await handle.close();
    }
    await rename(temporary, path);
  } catch (error) {
    await unlink(temporary).catch(() => undefined);
    throw error;
  }
}

/**
 * Refuses `path` as a recording, without writing anything: a forbidden file always, an existing
 * file that is not a recording of the lines form unless `force`. Says what the file holds now
 * (nothing: `undefined`), with its symbolic links followed.
 */
export async function checkRecordingPath(
  path: string,
  options: Pick<RecordingFileOptions, 'force' | 'forbidden'>,
): Promise<{ file: string; kind: 'lines' | 'document' | 'other' | undefined }> {
  const file = await resolveStateFile(path);
  const id = await identity(file);
  for (const forbidden of options.forbidden ?? []) {
    const other = await resolveStateFile(forbidden.path);
    if (other === file || (id !== undefined && id === (await identity(other))))
      throw new RecordingFileError(`--record ${path} is the ${forbidden.what}: name another file`);
  }
  const info = await lstat(file).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw error;
  });
  if (info && !info.isFile()) throw new RecordingFileError(`--record ${path} is not a file`);
  const kind = info && info.size > 0 ? await kindOf(file) : undefined;
  if (kind === 'document' && !options.force)
    throw new RecordingFileError(
      `--record ${path} holds a recording of the one-document form (${RECORDING_FORMAT}), which cannot be appended to: name a new file, or add --force to replace it`,
    );
  if (kind === 'other' && !options.force)
    throw new RecordingFileError(
      `--record ${path} exists and is not a recording (${RECORDING_LINES_FORMAT}): name a new file, or add --force to replace it`,
    );
  return { file, kind };
}

/** A recording of the lines form, open to append to. */
export class RecordingFile {
  #pending: Array<{
    text: string;
    sync: boolean;
    resolve: () => void;
    reject: (error: Error) => void;
  }> = [];
  /** Bytes and lines given to `append` and not yet written (or failed). */
  #queuedBytes = 0;
  #queuedLines = 0;
  #pumping: Promise<void> | undefined;
  /** Set once the file could not be cut back to whole lines: nothing is written after it. */
  #broken: Error | undefined;

  private constructor(
    /** The file written: the path given, its symbolic links followed. */
    readonly file: string,
    private readonly handle: FileHandle,
    /** Bytes of whole lines on disk. */
    private size: number,
    private exchanges: number,
    private readonly options: RecordingFileOptions,
  ) {}

  /**
   * Checks `path` and opens it to append: an existing recording of the lines form is continued;
   * a missing or empty file is written new; anything else is refused unless `force` (then
   * replaced); a forbidden file is refused always. Throws a {@link RecordingFileError}, or the
   * error of a file system call (a missing directory) for the caller to name.
   */
  static async open(path: string, options: RecordingFileOptions): Promise<RecordingFile> {
    const openFile = options.openFile ?? open;
    const { file, kind } = await checkRecordingPath(path, options);
    if (kind !== 'lines') await writeNew(file, openFile);
    const { size, exchanges } = await existingLines(file);
    if (size >= options.maxBytes || exchanges >= options.maxExchanges)
      throw new RecordingFileError(
        `--record ${path} is full (${size} bytes, ${exchanges} exchanges; at most ${options.maxBytes} bytes, ${options.maxExchanges} exchanges): name a new file`,
      );
    // @note O_NOFOLLOW: a symbolic link put at the resolved name since is not followed.
    const handle = await openFile(
      file,
      constants.O_WRONLY | constants.O_APPEND | constants.O_NOFOLLOW,
    );
    return new RecordingFile(file, handle, size, exchanges, options);
  }

  /**
   * Appends one exchange's line (ending in `\n`); resolves once it is on disk. Rejects with a
   * {@link RecordingFullError} when it would take the file past its bounds, or with the write's
   * error (a full disk): then whatever part of it was written is cut off again, so the file is
   * always whole lines. With `sync`, the line is on the disk itself (`fdatasync`), not only in
   * the system's cache, before it resolves. Lines that fall due together are one write and at
   * most one sync.
   */
  append(line: string, sync: boolean): Promise<void> {
    const bytes = Buffer.byteLength(line);
    const { maxBytes, maxExchanges } = this.options;
    if (
      this.size + this.#queuedBytes + bytes > maxBytes ||
      this.exchanges + this.#queuedLines >= maxExchanges
    )
      return Promise.reject(
        new RecordingFullError(
          `it holds ${this.exchanges} exchanges in ${this.size} bytes, at most ${maxExchanges} exchanges in ${maxBytes} bytes (--record-max-bytes)`,
        ),
      );
    this.#queuedBytes += bytes;
    this.#queuedLines += 1;
    return new Promise<void>((resolve, reject) => {
      this.#pending.push({ text: line, sync, resolve, reject });
      this.#pumping ??= this.#pump().finally(() => (this.#pumping = undefined));
    });
  }

  async #pump(): Promise<void> {
    while (this.#pending.length > 0) {
      const batch = this.#pending.splice(0);
      const bytes = Buffer.from(batch.map((each) => each.text).join(''));
      try {
        await this.#write(
          bytes,
          batch.some((each) => each.sync),
        );
        this.exchanges += batch.length;
        for (const each of batch) each.resolve();
      } catch (error) {
        for (const each of batch) each.reject(error as Error);
      } finally {
        this.#queuedBytes -= bytes.length;
        this.#queuedLines -= batch.length;
      }
    }
  }

  async #write(bytes: Buffer, sync: boolean): Promise<void> {
    if (this.#broken) throw this.#broken;
    let written = 0;
    try {
      // @note A write may take less than it was given (a disk filling up): the rest follows.
      while (written < bytes.length) {
        const { bytesWritten } = await this.handle.write(bytes, written, bytes.length - written);
        written += bytesWritten;
      }
      if (sync) await this.handle.datasync();
      this.size += bytes.length;
    } catch (error) {
      await this.handle.truncate(this.size).catch((cut: Error) => (this.#broken = cut));
      throw error;
    }
  }

  /** Waits for the writes under way, then closes the file. */
  async close(): Promise<void> {
    while (this.#pumping) await this.#pumping;
    await this.handle.close();
  }
}
