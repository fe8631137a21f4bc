import { eachWord, type WordIds } from './search-index.ts';

/**
 * Counts one object's words at a time, as word ids: per id its occurrences, and the distinct ids
 * in {@link distinct} (the first {@link distinctCount} entries), read by the index right after.
 * @note Arrays kept from object to object, not a map of counts per object: a load of a million
 * objects made a million maps and their iterators, a sixth of its garbage.
 */
export class WordCounter {
  readonly #vocabulary: WordIds;
  /** Per word id, its occurrences in the object counted last (valid where {@link #countOf} says). */
  occurrences = new Int32Array(64);
  /** Per word id, the count it belongs to: {@link #counted} marks ids of earlier objects stale. */
  #countOf = new Int32Array(64).fill(-1);
  #counted = 0;
  /**
   * The first {@link distinctCount} entries are the object's distinct word ids.
   * @note Never shortened: setting an array's length to 0 lets V8 drop its storage, and a new
   * one was allocated for every object.
   */
  readonly distinct: number[] = [];
  distinctCount = 0;
  readonly #countWord = (word: string): void => {
    this.#countId(this.#vocabulary.intern(word));
  };
  /** As {@link #countWord}, for words already in the vocabulary: an unknown word is skipped. */
  readonly #countKnownWord = (word: string): void => {
    const id = this.#vocabulary.idOf(word);
    if (id !== undefined) this.#countId(id);
  };
  readonly #countId = (id: number): void => {
    if (id >= this.#countOf.length) this.#grow(id);
    if (this.#countOf[id] !== this.#counted) {
      this.#countOf[id] = this.#counted;
      this.occurrences[id] = 0;
      this.distinct[this.distinctCount++] = id;
    }
    this.occurrences[id]! += 1;
  };

  constructor(vocabulary: WordIds) {
    this.#vocabulary = vocabulary;
  }

  /**
   * Counts the words of `content`, adding new words to the vocabulary; all or none: when the
   * vocabulary throws (a map at V8's cap), the words numbered so far are given back.
   */
  count(content: unknown): void {
    this.#start();
    try {
      eachWord(content, this.#countWord);
    } catch (error) {
      for (let i = 0; i < this.distinctCount; i++) this.#vocabulary.forgetUnused(this.distinct[i]!);
      throw error;
    }
  }

  /** Counts the words of `content` the vocabulary knows (an object being removed). */
  countKnown(content: unknown): void {
    this.#start();
    eachWord(content, this.#countKnownWord);
  }

  #start(): void {
    // @note A new count number makes every earlier count stale without clearing the arrays.
    if (this.#counted === 0x7fffffff) {
      this.#countOf.fill(-1);
      this.#counted = 0;
    }
    this.#counted += 1;
    this.distinctCount = 0;
  }

  #grow(id: number): void {
    const size = Math.max(Math.ceil(this.#countOf.length * 1.5), id + 1, this.#vocabulary.idLimit);
    const occurrences = new Int32Array(size);
    occurrences.set(this.occurrences);
    this.occurrences = occurrences;
    const countOf = new Int32Array(size).fill(-1);
    countOf.set(this.#countOf);
    this.#countOf = countOf;
  }
}
