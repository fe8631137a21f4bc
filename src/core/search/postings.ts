/**
 * The posting lists of the search index: for each word id, the documents (numbered objects) that
 * contain the word, in ascending document order, each with how many times it occurs there (one
 * 32-bit entry each: `posting-entry.ts`).
 * @note Most words are held by few objects (names, numbers, ids): a list of its own for each
 * would cost 50 to 200 bytes a word, so short lists share one array in blocks (`arena.ts`). A
 * list longer than {@link SHORT} gets a `Uint32Array` of its own, grown by half: no list ever
 * moves more than its own entries, and nothing is compacted wholesale except on renumbering.
 */
import { firstIndex } from '../primitives/binary-search.ts';
import { Arena } from './arena.ts';
import {
  COUNT_BITS,
  documentOf,
  ExactCounts,
  MAX_DOCUMENT,
  renumberEntries,
  SATURATED,
  UNIT,
} from './posting-entry.ts';

/** The longest list kept in the arena; longer ones have an array of their own. */
const SHORT = 64;
/** Block sizes in the arena are 2^size; this marks a word whose list has its own array. */
const OWN = 255;
/** The numbers kept per word id, and where each sits in its row (see `Postings.#words`). */
const FIELDS = 4;
/** Where the word's block starts in the arena; -1 with no block. */
const OFFSET = 0;
/** How many entries the word's list holds, removed ones included. */
const LENGTH = 1;
/** The word's block size (2^size entries), {@link OWN}, or 0 with no entries. */
const SIZE = 2;
/** How many of the word's entries are removed (count 0) or name a deleted document. */
const STALE = 3;

/** What `set` did to a document's posting. */
export type PostingChange = 'added' | 'changed';

/** Where a word's entries are: `entries[start .. end]`. */
export interface PostingList {
  entries: Uint32Array;
  start: number;
  end: number;
}

export class Postings {
  /** Whether a document is still indexed: entries of deleted ones are dropped lazily. */
  readonly #alive: (document: number) => boolean;
  readonly #arena = new Arena(Math.log2(SHORT));
  /** Lists longer than {@link SHORT}. */
  #own = new Map<number, Uint32Array>();
  /**
   * Per word id, {@link FIELDS} numbers in a row: where its block starts ({@link OFFSET}), how
   * many entries it holds ({@link LENGTH}), its block's size ({@link SIZE}) and how many of its
   * entries are stale ({@link STALE}).
   * @note One row, not four arrays: a rare word's fields were four lines of memory in no cache
   * at a million objects, read on every delete of an object that holds it; a row is one.
   */
  #words = emptyRows(64);
  /** How many word ids {@link #words} has rows for. */
  #capacity = 64;
  readonly #exact = new ExactCounts();

  constructor(alive: (document: number) => boolean) {
    this.#alive = alive;
  }

  /** The entries of `word`'s list (valid until the next change). */
  list(word: number): PostingList {
    const row = word * FIELDS;
    if (word >= this.#capacity) return { entries: this.#arena.entries, start: 0, end: 0 };
    const own = this.#words[row + SIZE] === OWN ? this.#own.get(word) : undefined;
    if (own) return { entries: own, start: 0, end: this.#words[row + LENGTH]! };
    const start = Math.max(this.#words[row + OFFSET]!, 0);
    return { entries: this.#arena.entries, start, end: start + this.#words[row + LENGTH]! };
  }

  /** The count of `word` in an entry of its list; 0 for a removed posting. */
  countOf(word: number, entry: number): number {
    const count = entry & SATURATED;
    return count === SATURATED ? this.#exact.get(entry >>> COUNT_BITS, word) : count;
  }

  /** Adds a posting for a document numbered above every document of the list. */
  append(word: number, document: number, count: number): void {
    const row = word * FIELDS;
    this.#fit(word);
    const length = this.#words[row + LENGTH]!;
    const entries = this.#reserve(word, length + 1);
    entries[this.#reservedAt + length] = this.#encode(word, document, count);
    this.#words[row + LENGTH] = length + 1;
  }

  /**
   * Sets the count of `document` in `word`'s list, inserting the posting in document order if the
   * list has none (or reviving a removed one); says whether the posting is new.
   */
  set(word: number, document: number, count: number): PostingChange {
    const row = word * FIELDS;
    this.#fit(word);
    const list = this.list(word);
    const found = this.#find(list, document);
    let { entries, start } = list;
    const length = this.#words[row + LENGTH]!;
    if (found < length && documentOf(entries[start + found]!) === document) {
      const removed = (entries[start + found]! & SATURATED) === 0;
      if (removed) this.#words[row + STALE]! -= 1;
      entries[start + found] = this.#encode(word, document, count);
      return removed ? 'added' : 'changed';
    }
    entries = this.#reserve(word, length + 1);
    start = this.#reservedAt;
    entries.copyWithin(start + found + 1, start + found, start + length);
    entries[start + found] = this.#encode(word, document, count);
    this.#words[row + LENGTH] = length + 1;
    return 'added';
  }

  /** Removes `document`'s posting from `word`'s list; says whether there was one. */
  remove(word: number, document: number): boolean {
    const row = word * FIELDS;
    if (word >= this.#capacity) return false;
    const list = this.list(word);
    const { entries, start, end } = list;
    const at = start + this.#find(list, document);
    if (at >= end || documentOf(entries[at]!) !== document || (entries[at]! & SATURATED) === 0) {
      return false;
    }
    // @note Marked, not spliced out: a long list is compacted once half of it is marked.
    entries[at] = document * UNIT;
    this.#exact.forget(document, word);
    this.#words[row + STALE]! += 1;
    if (2 * this.#words[row + STALE]! > this.#words[row + LENGTH]!) this.#compact(word);
    return true;
  }

  /**
   * Counts one entry of `word`'s list as naming a deleted document, without looking for it.
   * @note A search skips deleted documents anyway; finding each entry (a binary search in a
   * long list, a cache miss a step) was most of a delete's cost at a million objects. The
   * entries go when the list is next compacted.
   */
  removeDeleted(word: number): void {
    const row = word * FIELDS;
    if (word >= this.#capacity) return;
    this.#words[row + STALE]! += 1;
    if (2 * this.#words[row + STALE]! > this.#words[row + LENGTH]!) this.#compact(word);
  }

  /** Forgets what is kept apart for a deleted document (exact counts). */
  forgetDocument(document: number): void {
    this.#exact.forgetDocument(document);
  }

  /** Forgets a word's list whole (nobody uses the word any more). */
  drop(word: number): void {
    const row = word * FIELDS;
    if (word >= this.#capacity) return;
    const size = this.#words[row + SIZE]!;
    if (size === OWN) this.#own.delete(word);
    else if (this.#words[row + OFFSET]! >= 0) this.#arena.giveUp(size, this.#words[row + OFFSET]!);
    this.#words[row + LENGTH] = 0;
    this.#words[row + SIZE] = 0;
    this.#words[row + STALE] = 0;
    this.#words[row + OFFSET] = -1;
  }

  /**
   * Renumbers the documents (`renumbered[old]`, -1 for a deleted one) and lays the short lists
   * out afresh, dropping removed postings and those of deleted documents.
   * @note The new numbers must keep the documents' order, so every list stays sorted.
   */
  renumber(renumbered: Int32Array): void {
    const rewrite = (from: Uint32Array, start: number, end: number, to: Uint32Array, at: number) =>
      renumberEntries(renumbered, from, start, end, to, at);
    const arena = new Uint32Array(Math.max(256, this.#arena.end));
    let arenaEnd = 0;
    for (let word = 0; word < this.#capacity; word++) {
      const row = word * FIELDS;
      const { entries, start, end } = this.list(word);
      if (this.#words[row + SIZE] === OWN) {
        const own = new Uint32Array(end - start);
        const length = rewrite(entries, start, end, own, 0);
        this.#own.set(word, length === own.length ? own : own.slice(0, length));
        this.#words[row + LENGTH] = length;
      } else if (end > start) {
        const block = 2 ** this.#words[row + SIZE]!;
        const length = rewrite(entries, start, end, arena, arenaEnd);
        this.#words[row + OFFSET] = arenaEnd;
        this.#words[row + LENGTH] = length - arenaEnd;
        arenaEnd += block;
      } else if (this.#words[row + SIZE]! > 0 || this.#words[row + OFFSET]! >= 0) {
        // @note An empty block is given up: the word's next posting takes a block afresh.
        this.#words[row + SIZE] = 0;
        this.#words[row + OFFSET] = -1;
      }
      this.#words[row + STALE] = 0;
    }
    this.#arena.replace(arena, arenaEnd);
    this.#exact.renumber(renumbered);
  }

  /** Index in a list of the first entry of a document >= `document`. */
  #find({ entries, start, end }: PostingList, document: number): number {
    return firstIndex(end - start, (i) => documentOf(entries[start + i]!) >= document);
  }

  /** Drops the removed postings and those of deleted documents from `word`'s list. */
  #compact(word: number): void {
    const row = word * FIELDS;
    const { entries, start, end } = this.list(word);
    let to = start;
    for (let from = start; from < end; from++) {
      const entry = entries[from]!;
      if ((entry & SATURATED) !== 0 && this.#alive(entry >>> COUNT_BITS)) entries[to++] = entry;
    }
    this.#words[row + LENGTH] = to - start;
    this.#words[row + STALE] = 0;
    const own = this.#own.get(word);
    if (own && own.length > 4 * (to - start) + SHORT) {
      this.#own.set(word, own.slice(0, Math.ceil((to - start) * 1.5)));
    }
  }

  #encode(word: number, document: number, count: number): number {
    if (document > MAX_DOCUMENT) throw new RangeError('Too many documents for the search index');
    if (count < SATURATED) {
      this.#exact.forget(document, word);
      return document * UNIT + count;
    }
    this.#exact.set(document, word, count);
    return document * UNIT + SATURATED;
  }

  /** Makes room in {@link #words} for `word`. */
  #fit(word: number): void {
    if (word < this.#capacity) return;
    const capacity = Math.max(word + 1, this.#capacity * 2);
    const words = emptyRows(capacity);
    words.set(this.#words);
    this.#words = words;
    this.#capacity = capacity;
  }

  /** Where the list {@link #reserve} returned starts in its array. */
  #reservedAt = 0;

  /**
   * Makes `word`'s list hold at least `needed` entries; returns the array that holds them, from
   * {@link #reservedAt} on.
   * @note Not a {@link PostingList}: an object per posting added was a tenth of a load's garbage.
   */
  #reserve(word: number, needed: number): Uint32Array {
    const row = word * FIELDS;
    const size = this.#words[row + SIZE]!;
    const length = this.#words[row + LENGTH]!;
    if (size === OWN) {
      let own = this.#own.get(word)!;
      if (needed > own.length) {
        const larger = new Uint32Array(Math.max(needed, Math.ceil(own.length * 1.5)));
        larger.set(own.subarray(0, length));
        this.#own.set(word, (own = larger));
      }
      this.#reservedAt = 0;
      return own;
    }
    const from = this.#words[row + OFFSET]!;
    const hasBlock = from >= 0;
    if (hasBlock && needed <= 2 ** size) {
      this.#reservedAt = from;
      return this.#arena.entries;
    }
    if (needed > SHORT) {
      const own = new Uint32Array(2 * SHORT);
      own.set(this.#arena.entries.subarray(from, from + length));
      this.#arena.giveUp(size, from);
      this.#own.set(word, own);
      this.#words[row + SIZE] = OWN;
      this.#reservedAt = 0;
      return own;
    }
    const larger = hasBlock ? size + 1 : Math.ceil(Math.log2(needed));
    const at = this.#arena.take(larger);
    const entries = this.#arena.entries;
    if (length > 0) entries.copyWithin(at, from, from + length);
    if (hasBlock) this.#arena.giveUp(size, from);
    this.#words[row + OFFSET] = at;
    this.#words[row + SIZE] = larger;
    this.#reservedAt = at;
    return entries;
  }
}

/** Rows for `words` word ids with no entries: no block ({@link OFFSET} -1), all else 0. */
function emptyRows(words: number): Int32Array<ArrayBuffer> {
  const rows = new Int32Array(words * FIELDS);
  for (let at = OFFSET; at < rows.length; at += FIELDS) rows[at] = -1;
  return rows;
}
