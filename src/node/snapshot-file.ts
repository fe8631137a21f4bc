import { rename, writeFile } from 'node:fs/promises';

/**
 * Keeps a JSON file in step with a mock's state (`--state-file`). Writes are atomic (a temporary
 * file, then a rename) and coalesced: at most one write is in flight, and changes made during it
 * are written once more afterwards, from the state as it is then.
 */
export class SnapshotFile {
  #pending = false;
  #writing: Promise<void> | undefined;

  constructor(
    readonly file: string,
    private readonly snapshot: () => unknown,
    private readonly onError: (error: unknown) => void = (error) =>
      console.error(`answers-mock: cannot write ${file}: ${String(error)}`),
  ) {}

  /** Notes a change; the file is written soon after. */
  schedule(): void {
    this.#pending = true;
    this.#writing ??= this.#drain().finally(() => {
      this.#writing = undefined;
    });
  }

  /** Resolves once every change noted so far is on disk (or failed to be written). */
  async flush(): Promise<void> {
    while (this.#writing) await this.#writing;
  }

  async #drain(): Promise<void> {
    const temporary = `${this.file}.tmp-${process.pid}`;
    try {
      while (this.#pending) {
        this.#pending = false;
        await writeFile(temporary, `${JSON.stringify(this.snapshot(), null, 2)}\n`);
        await rename(temporary, this.file);
      }
    } catch (error) {
      this.#pending = false;
      this.onError(error);
    }
  }
}
