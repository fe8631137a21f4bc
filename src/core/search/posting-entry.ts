/**
 * A posting list entry: one 32-bit number, the document number times {@link UNIT} plus how many
 * times the word occurs there (0 marks a posting removed in place; {@link SATURATED} a count
 * kept exactly in {@link ExactCounts}).
 */
export const COUNT_BITS = 3;
/** The count field's largest value: "this count or more, see {@link ExactCounts}". */
export const SATURATED = (1 << COUNT_BITS) - 1;
/** An entry is `document * UNIT + count` (arithmetic: `<<` would go negative past 2^31). */
export const UNIT = 1 << COUNT_BITS;
/** The largest document number an entry can hold. */
export const MAX_DOCUMENT = 2 ** (32 - COUNT_BITS) - 1;

/** The document of an entry. */
export const documentOf = (entry: number): number => entry >>> COUNT_BITS;

/**
 * Copies the entries `from[start .. end]` to `to` from `at` on, each with its document's new
 * number (`renumbered[old]`), dropping removed postings and those of deleted documents (-1);
 * returns where the copy ends.
 */
export function renumberEntries(
  renumbered: Int32Array,
  from: Uint32Array,
  start: number,
  end: number,
  to: Uint32Array,
  at: number,
): number {
  for (let i = start; i < end; i++) {
    const entry = from[i]!;
    const count = entry & SATURATED;
    const document = count === 0 ? -1 : renumbered[entry >>> COUNT_BITS]!;
    if (document >= 0) to[at++] = document * UNIT + count;
  }
  return at;
}

/** Exact counts of postings whose count field is {@link SATURATED}: document -> word -> count. */
export class ExactCounts {
  #byDocument = new Map<number, Map<number, number>>();

  get(document: number, word: number): number {
    return this.#byDocument.get(document)!.get(word)!;
  }

  set(document: number, word: number, count: number): void {
    let counts = this.#byDocument.get(document);
    if (!counts) this.#byDocument.set(document, (counts = new Map()));
    counts.set(word, count);
  }

  /** Forgets the word's exact count in the document, if it had one. */
  forget(document: number, word: number): void {
    const counts = this.#byDocument.get(document);
    if (counts?.delete(word) && counts.size === 0) this.#byDocument.delete(document);
  }

  /** Forgets a deleted document's exact counts. */
  forgetDocument(document: number): void {
    this.#byDocument.delete(document);
  }

  /** Moves each document's counts to its new number (-1: dropped). */
  renumber(renumbered: Int32Array): void {
    const before = this.#byDocument;
    this.#byDocument = new Map();
    for (const [document, counts] of before) {
      if (renumbered[document]! >= 0) this.#byDocument.set(renumbered[document]!, counts);
    }
  }
}
