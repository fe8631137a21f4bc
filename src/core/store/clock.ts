/**
 * The mock's clock. Every reading is at least 1 ms after the previous one (until the clock is set
 * back, or returns to the wall clock), so creation dates within a run of time are unique.
 * @see spec §2 (COLL-LIST-3)
 */
export class Clock {
  #last = 0;
  #fixed: number | undefined;
  #changes = 0;

  /** Counts the times the clock was set, moved or let go (not its ticks): caches of answers look. */
  get changes(): number {
    return this.#changes;
  }

  /** Starts at `start` (ms since epoch) when given: a frozen clock that only `advance` moves. */
  constructor(start?: number) {
    this.#fixed = start;
  }

  /** The next timestamp, in ms since epoch. */
  tick(): number {
    const base = this.#fixed ?? Date.now();
    this.#last = Math.max(base, this.#last + 1);
    if (this.#fixed !== undefined) this.#fixed = this.#last;
    return this.#last;
  }

  /** The current time without consuming a tick. */
  peek(): number {
    return Math.max(this.#fixed ?? Date.now(), this.#last);
  }

  /** Freezes the clock at `ms`; readings then move only by `advance` and by 1 ms per tick. */
  set(ms: number): void {
    this.#changes += 1;
    this.#fixed = ms;
    this.#last = Math.min(this.#last, ms - 1);
  }

  /** Moves a frozen clock forward; a running clock is frozen at now + `ms`. */
  advance(ms: number): void {
    this.#changes += 1;
    this.#fixed = this.peek() + ms;
  }

  /**
   * Lets the clock follow the wall clock again, whatever was written while it was set: after a
   * clock set in the future, readings return to now (not to a millisecond past the last write).
   * Lists stay right, as they are sorted by creation date, not kept in creation order.
   */
  unfreeze(): void {
    if (this.#fixed === undefined) return;
    this.#changes += 1;
    this.#fixed = undefined;
    this.#last = Math.min(this.#last, Date.now() - 1);
  }

  get frozen(): boolean {
    return this.#fixed !== undefined;
  }
}

/** Formats ms since epoch as RFC 3339 UTC with milliseconds. */
export function toTimestamp(ms: number): string {
  return new Date(ms).toISOString();
}
