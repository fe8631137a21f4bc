/**
 * The posting lists of the search index: for each word id, the documents (numbered objects) that
 * contain the word, in ascending document order, each with how many times it occurs there.
 *
 * @note Every list lives in one shared `Uint32Array` (an arena), one entry a posting: the
 * document number shifted left by {@link COUNT_BITS}, the count in the low bits (0 marks a
 * posting removed in place, {@link SATURATED} a count kept exactly in {@link Postings.exact}).
 * A list of its own per word (an array, a typed array) would cost 50 to 200 bytes for each of
 * the many words only one object holds (ids, names, numbers); here a word costs 16 bytes and a
 * posting 4. A list grows by moving to a block twice its size at the end of the arena; the
 * blocks left behind are reclaimed by compacting the arena once they are half of it.
 */
export const COUNT_BITS = 3;
/** The count field's largest value: "this count or more, see {@link Postings.exact}". */
export const SATURATED = (1 << COUNT_BITS) - 1;
/** The largest document number an entry can hold. */
export const MAX_DOCUMENT = 2 ** (32 - COUNT_BITS) - 1;
/** An entry is `document * UNIT + count` (arithmetic: `<<` would go negative past 2^31). */
const UNIT = 1 << COUNT_BITS;

/** What `set` did to a document's posting. */
export type PostingChange = 'added' | 'changed';

export class Postings {
  /** The arena: every list's entries, each list a block `offset .. offset + capacity`. */
  entries = new Uint32Array(256);
  /** Where each word's block starts. */
  offset = new Int32Array(64);
  /** How many entries each word's list holds, removed ones included. */
  length = new Int32Array(64);
  #capacity = new Int32Array(64);
  /** How many entries of each list are removed (count 0). */
  #stale = new Int32Array(64);
  #end = 0;
  #garbage = 0;
  /** Exact counts of postings whose count field is {@link SATURATED}: document -> word -> count. */
  readonly exact = new Map<number, Map<number, number>>();

  /** The count of a posting entry of `word`. */
  countOf(word: number, entry: number): number {
    const count = entry & SATURATED;
    return count === SATURATED ? this.exact.get(entry >>> COUNT_BITS)!.get(word)! : count;
  }

  /** Adds a posting for a document numbered above every document of the list. */
  append(word: number, document: number, count: number): void {
    this.#fit(word);
    const length = this.length[word]!;
    this.#reserve(word, length + 1);
    this.entries[this.offset[word]! + length] = this.#encode(word, document, count);
    this.length[word] = length + 1;
  }

  /**
   * Sets the count of `document` in `word`'s list, inserting the posting in document order if the
   * list has none (or reviving a removed one); says whether the posting is new.
   */
  set(word: number, document: number, count: number): PostingChange {
    this.#fit(word);
    const at = this.#find(word, document);
    const offset = this.offset[word]!;
    const length = this.length[word]!;
    if (at < length && this.entries[offset + at]! >>> COUNT_BITS === document) {
      const removed = (this.entries[offset + at]! & SATURATED) === 0;
      if (removed) this.#stale[word]! -= 1;
      this.entries[offset + at] = this.#encode(word, document, count);
      return removed ? 'added' : 'changed';
    }
    this.#reserve(word, length + 1);
    const start = this.offset[word]!;
    this.entries.copyWithin(start + at + 1, start + at, start + length);
    this.entries[start + at] = this.#encode(word, document, count);
    this.length[word] = length + 1;
    return 'added';
  }

  /**
   * Removes `document`'s posting from `word`'s list (marks it, to be dropped when the list is
   * next compacted); says whether there was one.
   */
  remove(word: number, document: number): boolean {
    if (word >= this.length.length) return false;
    const at = this.#find(word, document);
    const index = this.offset[word]! + at;
    if (at >= this.length[word]! || this.entries[index]! >>> COUNT_BITS !== document) return false;
    if ((this.entries[index]! & SATURATED) === 0) return false;
    this.entries[index] = document * UNIT;
    this.#forgetExact(word, document);
    this.#stale[word]! += 1;
    if (2 * this.#stale[word]! > this.length[word]!) this.#compact(word);
    return true;
  }

  /** Forgets a word's list whole (nobody uses the word any more). */
  drop(word: number): void {
    if (word >= this.length.length) return;
    this.#garbage += this.#capacity[word]!;
    this.length[word] = 0;
    this.#capacity[word] = 0;
    this.#stale[word] = 0;
  }

  /** Drops the removed postings from `word`'s list. */
  #compact(word: number): void {
    const start = this.offset[word]!;
    const end = start + this.length[word]!;
    let to = start;
    for (let from = start; from < end; from++) {
      const entry = this.entries[from]!;
      if ((entry & SATURATED) !== 0) this.entries[to++] = entry;
    }
    this.length[word] = to - start;
    this.#stale[word] = 0;
  }

  /**
   * Renumbers the documents (`renumbered[old]`, -1 for a deleted one) and rebuilds the arena
   * without gaps, dropping removed postings and those of deleted documents.
   * @note The new numbers must keep the documents' order, so every list stays sorted.
   */
  renumber(renumbered: Int32Array): void {
    const words = this.length.length;
    let total = 0;
    for (let word = 0; word < words; word++) total += this.length[word]!;
    const entries = new Uint32Array(Math.max(256, total + (total >>> 2)));
    let end = 0;
    for (let word = 0; word < words; word++) {
      const start = this.offset[word]!;
      const length = this.length[word]!;
      this.offset[word] = end;
      for (let i = start; i < start + length; i++) {
        const entry = this.entries[i]!;
        const count = entry & SATURATED;
        const document = count === 0 ? -1 : renumbered[entry >>> COUNT_BITS]!;
        if (document >= 0) entries[end++] = document * UNIT + count;
      }
      this.length[word] = end - this.offset[word]!;
      this.#capacity[word] = this.length[word]!;
      this.#stale[word] = 0;
    }
    this.entries = entries;
    this.#end = end;
    this.#garbage = 0;
    const exact = [...this.exact];
    this.exact.clear();
    for (const [document, counts] of exact) {
      if (renumbered[document]! >= 0) this.exact.set(renumbered[document]!, counts);
    }
  }

  /** Index in `word`'s list of the first entry of a document >= `document`. */
  #find(word: number, document: number): number {
    const offset = this.offset[word]!;
    let low = 0;
    let high = this.length[word]!;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (this.entries[offset + mid]! >>> COUNT_BITS < document) low = mid + 1;
      else high = mid;
    }
    return low;
  }

  #encode(word: number, document: number, count: number): number {
    if (document > MAX_DOCUMENT) throw new RangeError('Too many documents for the search index');
    if (count < SATURATED) {
      this.#forgetExact(word, document);
      return document * UNIT + count;
    }
    let exact = this.exact.get(document);
    if (!exact) this.exact.set(document, (exact = new Map()));
    exact.set(word, count);
    return document * UNIT + SATURATED;
  }

  #forgetExact(word: number, document: number): void {
    const exact = this.exact.get(document);
    if (exact?.delete(word) && exact.size === 0) this.exact.delete(document);
  }

  /** Makes room in the per-word arrays for `word`. */
  #fit(word: number): void {
    if (word < this.length.length) return;
    const size = Math.max(word + 1, this.length.length * 2);
    const grow = (from: Int32Array) => {
      const to = new Int32Array(size);
      to.set(from);
      return to;
    };
    this.offset = grow(this.offset);
    this.length = grow(this.length);
    this.#capacity = grow(this.#capacity);
    this.#stale = grow(this.#stale);
  }

  /** Makes `word`'s block hold at least `needed` entries, moving it to the arena's end. */
  #reserve(word: number, needed: number): void {
    const capacity = this.#capacity[word]!;
    if (needed <= capacity) return;
    const length = this.length[word]!;
    // @note Compacting first can move this very block; read its place after.
    if (this.#garbage > 4_096 && 2 * this.#garbage > this.#end) this.#compactArena();
    const size = Math.max(needed, capacity === 0 ? 1 : 2 * capacity);
    if (this.#end + size > this.entries.length) {
      const grown = new Uint32Array(
        Math.max(this.#end + size, Math.ceil(this.entries.length * 1.5)),
      );
      grown.set(this.entries.subarray(0, this.#end));
      this.entries = grown;
    }
    const from = this.offset[word]!;
    this.entries.copyWithin(this.#end, from, from + length);
    this.offset[word] = this.#end;
    this.#capacity[word] = size;
    this.#end += size;
    this.#garbage += capacity;
  }

  /** Moves every block to the start of the arena, without the space left behind by moves. */
  #compactArena(): void {
    const entries = new Uint32Array(Math.max(256, this.#end - this.#garbage));
    let end = 0;
    for (let word = 0; word < this.length.length; word++) {
      const start = this.offset[word]!;
      const capacity = this.#capacity[word]!;
      entries.set(this.entries.subarray(start, start + this.length[word]!), end);
      this.offset[word] = end;
      end += capacity;
    }
    this.entries = entries;
    this.#end = end;
    this.#garbage = 0;
  }
}
