import { InvertedIndex } from './inverted-index.ts';
import { eachWord } from './search-index.ts';

/**
 * The words a store's objects contain, numbered, each with the number of uses that hold it (for
 * the store's index, the objects that contain the word), and the store's search index over them.
 * A word nobody uses any more is forgotten and its number given to the next new word, so the
 * vocabulary holds the words of the live objects and nothing else: deleted objects, reset and
 * discarded mocks leave nothing behind (each store has its own).
 */
export class Vocabulary {
  #ids = new Map<string, number>();
  #words: Array<string | undefined> = [];
  #uses: number[] = [];
  #free: number[] = [];

  /** The inverted index of the store's objects, by the ids of this vocabulary. */
  readonly index: InvertedIndex = new InvertedIndex(this);

  /** The number of distinct words in use. */
  get size(): number {
    return this.#ids.size;
  }

  /** The id of `word`, counting one more use of it. */
  use(word: string): number {
    const id = this.intern(word);
    this.#uses[id]! += 1;
    return id;
  }

  /**
   * The id of `word`, numbering it if it is new, without counting a use: the caller counts the
   * use with {@link addUse} before anything else can release words (a new word has no use yet).
   */
  intern(word: string): number {
    let id = this.#ids.get(word);
    if (id === undefined) {
      const free = this.#free;
      id = free.length > 0 ? free[free.length - 1]! : this.#words.length;
      // @note Set before the free id is taken: a map at V8's cap throws here, and then nothing
      // has changed.
      this.#ids.set(word, id);
      if (free.length > 0) free.pop();
      this.#words[id] = word;
      this.#uses[id] = 0;
    }
    return id;
  }

  /**
   * Forgets the word numbered `id` if nothing uses it: a write that interned its words and then
   * failed gives back the new ones, so they do not pin memory for ever.
   */
  forgetUnused(id: number): void {
    const word = this.#words[id];
    if (word === undefined || this.#uses[id]! > 0) return;
    this.#ids.delete(word);
    this.#words[id] = undefined;
    this.#free.push(id);
  }

  /**
   * How many distinct words of `content`'s strings the vocabulary does not hold: what storing it
   * would add. Counted without numbering anything, so a write refused for it changes nothing.
   */
  unknownWords(content: unknown): number {
    const unknown = new Set<string>();
    eachWord(content, (word) => {
      if (!this.#ids.has(word)) unknown.add(word);
    });
    return unknown.size;
  }

  /** Counts one more use of the word numbered `id` (from {@link intern}). */
  addUse(id: number): void {
    this.#uses[id]! += 1;
  }

  /** One more than the highest id a word can have now (ids are below it). */
  get idLimit(): number {
    return this.#words.length;
  }

  /** Counts one use of the word numbered `id` less; forgets the word at zero and says so. */
  release(id: number): boolean {
    const word = this.#words[id];
    if (word === undefined) return false;
    const left = this.#uses[id]! - 1;
    this.#uses[id] = left;
    if (left > 0) return false;
    this.#ids.delete(word);
    this.#words[id] = undefined;
    this.#free.push(id);
    return true;
  }

  /** The id of a word in use, without counting a use (for queries). */
  idOf(word: string): number | undefined {
    return this.#ids.get(word);
  }
}
