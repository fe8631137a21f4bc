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

  /** Where the sequence is: a snapshot saves it, so ids continue after a restart. */
  get state(): number {
    return this.#state;
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

/** FNV-1a of a string: a 32-bit seed for an account's own sequence. */
function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/**
 * One id sequence per account, each started from the mock's seed and the account id: an account
 * sees only its own creates in the ids it gets (one shared sequence let an account count
 * another's), and a saved position continues where it stopped, so ids are never handed out twice.
 * @see docs/spec-gaps.md GAP-STATES
 */
export class AccountIds {
  #sequences = new Map<string, IdSequence>();

  constructor(private readonly seed: number) {}

  /** The next id for `accountId`. */
  next(accountId: string, prefix: 'col' | 'obj'): string {
    let sequence = this.#sequences.get(accountId);
    if (!sequence) {
      sequence = new IdSequence(hash(`${this.seed}:${accountId}`));
      this.#sequences.set(accountId, sequence);
    }
    return sequence.next(prefix);
  }

  /** Where `accountId`'s sequence stands (its seed when it has handed out nothing yet). */
  positionOf(accountId: string): number {
    return this.#sequences.get(accountId)?.state ?? hash(`${this.seed}:${accountId}`);
  }

  /** Every account's position, for a snapshot. */
  export(): Record<string, number> {
    return Object.fromEntries([...this.#sequences].map(([account, seq]) => [account, seq.state]));
  }

  /** Starts over from the seed, then from `positions` where a snapshot gives them. */
  load(positions: Record<string, number> = {}): void {
    this.#sequences = new Map(
      Object.entries(positions).map(([account, state]) => [account, new IdSequence(state)]),
    );
  }
}
