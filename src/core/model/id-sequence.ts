const ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyz';

/**
 * Generates resource ids (`col_…`, `obj_…`: a prefix and 20 base-36 characters) from a seeded
 * pseudo-random sequence, so a mock started from the same seed hands out the same ids.
 * @see docs/spec-gaps.md GAP-COLL-FIELDS, GAP-OBJ-FIELDS
 */
export class IdSequence {
  #state: number;

  constructor(seed = 1) {
    this.#state = seed >>> 0;
  }

  /** Restarts the sequence from `seed`. */
  reseed(seed: number): void {
    this.#state = seed >>> 0;
  }

  next(prefix: 'col' | 'obj'): string {
    let id = `${prefix}_`;
    for (let i = 0; i < 20; i++) id += ALPHABET[this.#random() % 36];
    return id;
  }

  /** mulberry32: small, fast, and good enough to make ids look unrelated. */
  #random(): number {
    this.#state = (this.#state + 0x6d2b79f5) >>> 0;
    let t = this.#state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  }
}
