/**
 * The one `Uint32Array` short posting lists share, in blocks of 1, 2, 4 ... entries: a block
 * given up when its list grows is reused by the next list that needs one of its size.
 */
export class Arena {
  entries: Uint32Array = new Uint32Array(256);
  /** Where the blocks handed out end: the next block starts here. */
  end = 0;
  /** Blocks given up, by size (`2^size` entries): their offsets. */
  readonly #free: number[][];

  constructor(largestSize: number) {
    this.#free = Array.from({ length: largestSize + 1 }, () => []);
  }

  /** A block of 2^`size` entries: one given up, else a new one at the end. */
  take(size: number): number {
    return this.#free[size]!.pop() ?? this.#grow(2 ** size);
  }

  /** Gives up the block of 2^`size` entries at `at`, for another list to take. */
  giveUp(size: number, at: number): void {
    this.#free[size]!.push(at);
  }

  /** Starts again from `entries`, laid out up to `end` with no block given up. */
  replace(entries: Uint32Array, end: number): void {
    this.entries = entries;
    this.end = end;
    for (const blocks of this.#free) blocks.length = 0;
  }

  /** A new block of `count` entries at the end. */
  #grow(count: number): number {
    if (this.end + count > this.entries.length) {
      const entries = new Uint32Array(Math.ceil((this.end + count) * 1.5));
      entries.set(this.entries.subarray(0, this.end));
      this.entries = entries;
    }
    const at = this.end;
    this.end += count;
    return at;
  }
}
