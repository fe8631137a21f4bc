/**
 * Sequences side by side share one account of the target: a walk of the list must not see
 * another sequence's collections come and go between its pages where pages are counted by
 * position (offset and page-number paging rightly shift then, and the walk would call that a
 * skip). Collection writes pass the gate side
 * by side; a walk passes it alone. A waiting walk goes before writes that come after it.
 */
export class Gate {
  #writes = 0;
  #walking = false;
  #walksWaiting = 0;
  #waiters: Array<() => void> = [];

  /** Runs a collection write (a create, a delete, a clean-up) beside others, never beside a walk. */
  async write<T>(run: () => Promise<T>): Promise<T> {
    while (this.#walking || this.#walksWaiting > 0) await this.#wait();
    this.#writes += 1;
    try {
      return await run();
    } finally {
      this.#writes -= 1;
      this.#wake();
    }
  }

  /** Runs a walk of the list alone: no collection write of another sequence in between. */
  async walk<T>(run: () => Promise<T>): Promise<T> {
    this.#walksWaiting += 1;
    try {
      while (this.#walking || this.#writes > 0) await this.#wait();
    } finally {
      this.#walksWaiting -= 1;
    }
    this.#walking = true;
    try {
      return await run();
    } finally {
      this.#walking = false;
      this.#wake();
    }
  }

  #wait(): Promise<void> {
    return new Promise((resume) => this.#waiters.push(resume));
  }

  #wake(): void {
    for (const resume of this.#waiters.splice(0)) resume();
  }
}
