/**
 * The two ways a search reads its hits in document order (see `HitReader`): one word's postings,
 * or the tallies a many-word search added up; both skip documents outside the allowed
 * collections.
 */
import { COUNT_BITS, SATURATED } from './posting-entry.ts';
import type { Postings } from './postings.ts';
import { FOUND, type HitReader } from './tally.ts';

/** A word's hits: its postings in the allowed collections, each with its tally. */
export class PostingReader implements HitReader {
  readonly #postings: Postings;
  readonly #word: number;
  readonly #entries: Uint32Array;
  readonly #start: number;
  readonly #end: number;
  readonly #collectionOf: Int32Array;
  readonly #allowed: Uint8Array;
  #at: number;
  #count = 0;

  constructor(postings: Postings, word: number, collectionOf: Int32Array, allowed: Uint8Array) {
    const { entries, start, end } = postings.list(word);
    this.#postings = postings;
    this.#word = word;
    this.#entries = entries;
    this.#start = start;
    this.#end = end;
    this.#collectionOf = collectionOf;
    this.#allowed = allowed;
    this.#at = start;
  }

  get finished(): boolean {
    return this.#at >= this.#end;
  }

  get count(): number {
    return this.#count;
  }

  rewind(): void {
    this.#at = this.#start;
    this.#count = 0;
  }

  read(documents: Int32Array, tallies: Float64Array, floor: number): number {
    const entries = this.#entries;
    const collectionOf = this.#collectionOf;
    const allowed = this.#allowed;
    const room = documents.length;
    // @note Bounded in entries read too, so a word mostly in other collections still pauses.
    const stop = Math.min(this.#end, this.#at + 4 * room);
    let found = 0;
    let hits = 0;
    let i = this.#at;
    for (; i < stop && found < room; i++) {
      const entry = entries[i]!;
      let count = entry & SATURATED;
      if (count === 0) continue;
      const document = entry >>> COUNT_BITS;
      if (allowed[collectionOf[document]!] === 0) continue;
      hits += 1;
      if (count === SATURATED) count = this.#postings.countOf(this.#word, entry);
      const tally = FOUND + count;
      if (tally <= floor) continue;
      documents[found] = document;
      tallies[found] = tally;
      found += 1;
    }
    this.#at = i;
    this.#count += hits;
    return found;
  }
}

/** The tallies a many-word search added up, documents `low .. high`. */
export class Tallies {
  constructor(
    readonly tally: Float64Array,
    readonly low: number,
    readonly high: number,
  ) {}

  /** Zeroes the tallies for the next search. */
  clear(): void {
    if (this.high >= this.low) this.tally.fill(0, this.low, this.high + 1);
  }
}

/** A many-word search's hits: the documents with a tally, in the allowed collections. */
export class TallyReader implements HitReader {
  readonly #tallies: Tallies;
  readonly #collectionOf: Int32Array;
  readonly #allowed: Uint8Array;
  #at: number;
  #count = 0;

  constructor(tallies: Tallies, collectionOf: Int32Array, allowed: Uint8Array) {
    this.#tallies = tallies;
    this.#collectionOf = collectionOf;
    this.#allowed = allowed;
    this.#at = tallies.low;
  }

  get finished(): boolean {
    return this.#at > this.#tallies.high;
  }

  get count(): number {
    return this.#count;
  }

  rewind(): void {
    this.#at = this.#tallies.low;
    this.#count = 0;
  }

  read(documents: Int32Array, tallies: Float64Array, floor: number): number {
    const { tally, high } = this.#tallies;
    const collectionOf = this.#collectionOf;
    const allowed = this.#allowed;
    const room = documents.length;
    const stop = Math.min(high + 1, this.#at + 4 * room);
    let found = 0;
    let hits = 0;
    let document = this.#at;
    for (; document < stop && found < room; document++) {
      const value = tally[document]!;
      if (value === 0 || allowed[collectionOf[document]!] === 0) continue;
      hits += 1;
      if (value <= floor) continue;
      documents[found] = document;
      tallies[found] = value;
      found += 1;
    }
    this.#at = document;
    this.#count += hits;
    return found;
  }
}
