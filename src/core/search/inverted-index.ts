import { compareByCreation } from '../primitives/creation-order.ts';
import { COUNT_BITS, Postings, SATURATED, UNIT, type PostingList } from './postings.ts';
import { FOUND, rankHits, Turns, type HitReader, type TieOrder } from './ranked-hits.ts';
import type { ObjectRecord } from '../store/records.ts';
import { countWords, eachWord, type WordIds } from './search-index.ts';

/** A search hit: the object and its score. */
export interface SearchHit {
  record: ObjectRecord;
  score: number;
}

/** Documents whose tallies a many-word search adds up at a time (256 KB of them). */
const BLOCK = 32_768;

/** An index growing past this many documents first warms the search code up, once a process. */
const WARM_AT = 20_000;
let warmed = false;

/**
 * The store's search index: every object is a document, numbered as it is indexed, and each
 * word's posting list (`postings.ts`) names the documents that contain it and how often. Kept
 * in the same step as every write (the store's object lists call it), so a search reads only
 * the lists of its words instead of every object.
 *
 * @note Documents are numbered in the order objects are indexed, which is creation order unless
 * an object older than one already indexed comes in (a snapshot not in creation order, a clock
 * set back): while it holds, ties in score are ranked by document number, a comparison of two
 * integers; after, by the records' creation order, slower but the same ranking. Numbers of
 * deleted objects are not reused; once they are the most, the documents are renumbered.
 * @see docs/spec-gaps.md GAP-SEARCH-MATCH, GAP-SEARCH-RESP
 */
export class InvertedIndex {
  readonly #vocabulary: WordIds;
  readonly #postings = new Postings((document) => this.#collectionOf[document] !== 0);
  #records: Array<ObjectRecord | undefined> = [];
  /** Each document's collection number; 0 for a deleted document. */
  #collectionOf = new Int32Array(64);
  /**
   * Each document's creation date in ms: ties in score compare two numbers, not two records,
   * when documents are not numbered in creation order.
   */
  #createdMs = new Float64Array(64);
  #live = 0;
  #inOrder = true;
  #latest: ObjectRecord | undefined;
  #collectionNumbers = new Map<string, number>();
  #freeCollectionNumbers: number[] = [];
  #collectionCount = 1;
  /** The object lists' document numbers, renumbered with the documents. */
  #lists = new Set<number[]>();
  /** Per document, while a search adds them up: query words found × {@link FOUND} + occurrences. */
  #tally = new Float64Array(64);
  /**
   * While {@link add} counts an object's words: per word id, its occurrences, the count it
   * belongs to ({@link #counted} marks ids of earlier objects as stale), and the distinct ids.
   * @note Arrays kept from object to object, not a map of counts per object: a load of a
   * million objects made a million maps and their iterators, a sixth of its garbage.
   */
  #occurrences = new Int32Array(64);
  #countOf = new Int32Array(64).fill(-1);
  #counted = 0;
  /**
   * The first {@link #distinctCount} entries are the current object's distinct word ids.
   * @note Never shortened: setting an array's length to 0 lets V8 drop its storage, and a new
   * one was allocated for every object.
   */
  readonly #distinct: number[] = [];
  #distinctCount = 0;
  readonly #countWord = (word: string): void => {
    this.#countId(this.#vocabulary.intern(word));
  };
  /** As {@link #countWord}, for words already in the vocabulary: an unknown word is skipped. */
  readonly #countKnownWord = (word: string): void => {
    const id = this.#vocabulary.idOf(word);
    if (id !== undefined) this.#countId(id);
  };
  readonly #countId = (id: number): void => {
    if (id >= this.#countOf.length) this.#growCounts(id);
    if (this.#countOf[id] !== this.#counted) {
      this.#countOf[id] = this.#counted;
      this.#occurrences[id] = 0;
      this.#distinct[this.#distinctCount++] = id;
    }
    this.#occurrences[id]! += 1;
  };

  constructor(vocabulary: WordIds) {
    this.#vocabulary = vocabulary;
  }

  /** The number of objects indexed. */
  get size(): number {
    return this.#live;
  }

  /** Keeps `documents` (an object list's document numbers) right when documents are renumbered. */
  attach(documents: number[]): void {
    this.#lists.add(documents);
  }

  /** Stops renumbering `documents`, and frees the collection's number. */
  detach(documents: number[], collectionId: string | undefined): void {
    this.#lists.delete(documents);
    const number =
      collectionId === undefined ? undefined : this.#collectionNumbers.get(collectionId);
    if (number === undefined) return;
    this.#collectionNumbers.delete(collectionId!);
    this.#freeCollectionNumbers.push(number);
  }

  /**
   * Indexes a new object; returns its document number.
   * @param createdMs `Date.parse(record.created_at)`, when the caller has it already.
   */
  add(record: ObjectRecord, createdMs = Date.parse(record.created_at)): number {
    const document = this.#records.length;
    if (this.#latest !== undefined && compareByCreation(record, this.#latest) < 0) {
      this.#inOrder = false;
    } else {
      this.#latest = record;
    }
    if (document >= this.#collectionOf.length) {
      const size = Math.ceil(this.#collectionOf.length * 1.5) + 64;
      const grown = new Int32Array(size);
      grown.set(this.#collectionOf);
      this.#collectionOf = grown;
      const created = new Float64Array(size);
      created.set(this.#createdMs);
      this.#createdMs = created;
      // @note Grown with the documents (all zeros between searches: nothing to copy), so the
      // first search of several words does not allocate the whole array at once: that
      // allocation made it several times slower than the next (a collection of the heap).
      this.#tally = new Float64Array(size);
    }
    this.#records.push(record);
    this.#collectionOf[document] = this.#collectionNumber(record.collection_id);
    this.#createdMs[document] = createdMs;
    this.#countWords(record.content);
    for (let i = 0; i < this.#distinctCount; i++) {
      const id = this.#distinct[i]!;
      this.#vocabulary.addUse(id);
      this.#postings.append(id, document, this.#occurrences[id]!);
    }
    this.#live += 1;
    if (this.#live === WARM_AT && !warmed) {
      warmed = true;
      // @note Private data only: nothing it does can meet a request.
      void warmUp().catch(() => undefined);
    }
    return document;
  }

  /** Counts the words of `content` into {@link #occurrences}; their ids into {@link #distinct}. */
  #countWords(content: unknown, countWord = this.#countWord): void {
    // @note A new count number makes every earlier count stale without clearing the arrays.
    if (this.#counted === 0x7fffffff) {
      this.#countOf.fill(-1);
      this.#counted = 0;
    }
    this.#counted += 1;
    this.#distinctCount = 0;
    eachWord(content, countWord);
  }

  #growCounts(id: number): void {
    const size = Math.max(Math.ceil(this.#countOf.length * 1.5), id + 1, this.#vocabulary.idLimit);
    const occurrences = new Int32Array(size);
    occurrences.set(this.#occurrences);
    this.#occurrences = occurrences;
    const countOf = new Int32Array(size).fill(-1);
    countOf.set(this.#countOf);
    this.#countOf = countOf;
  }

  /** Indexes `next` in place of `previous` (the same object, changed), keeping its number. */
  replace(document: number, previous: ObjectRecord, next: ObjectRecord): void {
    if (compareByCreation(previous, next) !== 0) {
      this.#inOrder = false;
      this.#createdMs[document] = Date.parse(next.created_at);
    }
    this.#records[document] = next;
    const before = countWords(previous.content);
    const after = countWords(next.content);
    for (const [word, count] of after) {
      const known = this.#vocabulary.idOf(word);
      if (known === undefined) this.#postings.set(this.#vocabulary.use(word), document, count);
      else if (this.#postings.set(known, document, count) === 'added') this.#vocabulary.use(word);
    }
    for (const word of before.keys()) if (!after.has(word)) this.#unpost(word, document);
  }

  /** Removes an object from the index. */
  remove(document: number, record: ObjectRecord): void {
    if (this.#records[document] === undefined) return;
    this.#records[document] = undefined;
    this.#collectionOf[document] = 0;
    this.#live -= 1;
    // @note Records are immutable (frozen; an update stores a new one), so the words of the
    // content are the words it was indexed with. Counted as `add` counts them: no map per delete.
    this.#countWords(record.content, this.#countKnownWord);
    for (let i = 0; i < this.#distinctCount; i++) {
      const id = this.#distinct[i]!;
      if (this.#vocabulary.release(id)) this.#postings.drop(id);
      else this.#postings.removeDeleted(id);
    }
    this.#postings.forgetDocument(document);
    const deleted = this.#records.length - this.#live;
    // @note Renumbering reads every posting: only when deleted numbers outnumber live ones two
    // to one, so its cost is spread over at least as many deletes.
    if (this.#live === 0 || (deleted >= 64 && deleted > 2 * this.#live)) this.#renumber();
  }

  /**
   * The page `offset .. offset + limit` of the objects of the given collections that contain at
   * least one of the words (ids of this vocabulary, distinct), ranked, and how many there are.
   * @note Lets the event loop run every few milliseconds while it works (`ranked-hits.ts`).
   */
  async search(
    query: readonly number[],
    collectionIds: readonly string[],
    offset: number,
    limit: number,
  ): Promise<{ page: SearchHit[]; total: number }> {
    const allowed = new Uint8Array(this.#collectionCount);
    for (const id of collectionIds) {
      const number = this.#collectionNumbers.get(id);
      if (number !== undefined) allowed[number] = 1;
    }
    const turns = new Turns();
    const records = this.#records;
    const created = this.#createdMs;
    // @note Creation dates are `toISOString()` output, so their order is their strings' order.
    const tie: TieOrder | undefined = this.#inOrder
      ? undefined
      : (a, b) => created[a]! - created[b]! || compareByCreation(records[a]!, records[b]!);
    let reader: HitReader;
    let done = () => undefined as void;
    if (query.length === 1) {
      reader = new PostingReader(this.#postings, query[0]!, this.#collectionOf, allowed);
    } else {
      const tallies = await this.#addUp(query, turns);
      reader = new TallyReader(tallies, this.#collectionOf, allowed);
      done = () => tallies.clear();
    }
    try {
      const ranked = await rankHits(reader, offset, limit, tie, turns);
      const page = ranked.documents.map((document, i) => ({
        record: records[document]!,
        score: ranked.scores[i]!,
      }));
      return { page, total: ranked.total };
    } finally {
      done();
    }
  }

  /**
   * Adds up, per document, what each query word found there (words × {@link FOUND} +
   * occurrences), in one array as long as the document numbers, to be read back in document
   * order over the span of the lists.
   * @note Block by block of documents, every word's postings in the block in turn: the block's
   * tallies stay in the processor's cache instead of each word sweeping the whole array: faster
   * for a query of many common words (docs/performance.md).
   * @note Every document is added up, whatever its collection: the collections are checked once
   * per document when the tallies are read back, not once per posting.
   */
  async #addUp(query: readonly number[], turns: Turns): Promise<Tallies> {
    const tally = this.#tally;
    const postings = this.#postings;
    const lists = query.map((word) => postings.list(word));
    let low = this.#records.length;
    let high = -1;
    for (const { entries, start, end } of lists) {
      if (start === end) continue;
      low = Math.min(low, entries[start]! >>> COUNT_BITS);
      high = Math.max(high, entries[end - 1]! >>> COUNT_BITS);
    }
    const cursors = lists.map((list) => list.start);
    for (let block = low; block <= high; block += BLOCK) {
      const limit = (block + BLOCK) * UNIT;
      for (let w = 0; w < query.length; w++) {
        cursors[w] = this.#addUpTo(query[w]!, lists[w]!, cursors[w]!, limit, tally);
      }
      await turns.pause();
    }
    return new Tallies(tally, low, high);
  }

  /**
   * Adds `word`'s postings from `from` on, up to the first entry at or past `limit` (a document
   * times {@link UNIT}), to their documents' tallies; returns where it stopped.
   */
  #addUpTo(
    word: number,
    { entries, end }: PostingList,
    from: number,
    limit: number,
    tally: Float64Array,
  ): number {
    let i = from;
    for (; i < end; i++) {
      const entry = entries[i]!;
      if (entry >= limit) break;
      let count = entry & SATURATED;
      if (count === 0) continue;
      const document = entry >>> COUNT_BITS;
      if (count === SATURATED) {
        // @note A deleted document's exact counts are gone (its entries go lazily).
        if (this.#collectionOf[document] === 0) continue;
        count = this.#postings.countOf(word, entry);
      }
      tally[document] = tally[document]! + FOUND + count;
    }
    return i;
  }

  /** Takes `document` out of `word`'s list, forgetting the word if it was its last object. */
  #unpost(word: string, document: number): void {
    const id = this.#vocabulary.idOf(word);
    if (id === undefined || !this.#postings.remove(id, document)) return;
    if (this.#vocabulary.release(id)) this.#postings.drop(id);
  }

  #collectionNumber(collectionId: string): number {
    let number = this.#collectionNumbers.get(collectionId);
    if (number === undefined) {
      number = this.#freeCollectionNumbers.pop() ?? this.#collectionCount++;
      this.#collectionNumbers.set(collectionId, number);
    }
    return number;
  }

  /** Numbers the live documents 0, 1, 2... in the order they had, and drops the deleted ones. */
  #renumber(): void {
    const renumbered = new Int32Array(this.#records.length).fill(-1);
    const records: ObjectRecord[] = [];
    const collectionOf = new Int32Array(Math.ceil(this.#live * 1.25) + 64);
    const createdMs = new Float64Array(collectionOf.length);
    for (let document = 0; document < this.#records.length; document++) {
      const record = this.#records[document];
      if (record === undefined) continue;
      renumbered[document] = records.length;
      collectionOf[records.length] = this.#collectionOf[document]!;
      createdMs[records.length] = this.#createdMs[document]!;
      records.push(record);
    }
    this.#postings.renumber(renumbered);
    for (const list of this.#lists) {
      for (let i = 0; i < list.length; i++) list[i] = renumbered[list[i]!] ?? -1;
    }
    this.#records = records;
    this.#collectionOf = collectionOf;
    this.#createdMs = createdMs;
    this.#tally = new Float64Array(collectionOf.length);
    if (records.length === 0) {
      this.#inOrder = true;
      this.#latest = undefined;
    }
  }
}

/** A word's hits: its postings in the allowed collections, each with its tally. */
class PostingReader implements HitReader {
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
class Tallies {
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
class TallyReader implements HitReader {
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

/** The words of the warm-up's documents. */
const WARM_WORDS = ['amber', 'birch', 'cedar', 'delta', 'ember'];

/**
 * Runs each kind of search (one word and several, shallow and deep pages, documents in and out
 * of creation order) over small private indexes, so that V8 has optimised the ranking code
 * before the first search over a large index.
 * @note Unwarmed, the first search at a million objects ran its loops unoptimised: several times
 * its later figure. This costs a few milliseconds, once a process, while a large store loads.
 */
async function warmUp(): Promise<void> {
  const ids = new Map<string, number>();
  const intern = (word: string) => {
    let id = ids.get(word);
    if (id === undefined) ids.set(word, (id = ids.size));
    return id;
  };
  const words: WordIds = {
    use: intern,
    intern,
    addUse: () => undefined,
    get idLimit() {
      return ids.size;
    },
    idOf: (word) => ids.get(word),
    release: () => false,
  };
  const collections = ['col_0', 'col_1', 'col_2'];
  const some = collections.slice(0, 2);
  // @note In creation order, with deep pages; out of it (another tie order), a first page.
  for (const [size, inOrder, offset] of [
    [1_500, true, 1_000],
    [300, false, 0],
  ] as const) {
    const index = new InvertedIndex(words);
    const start = Date.UTC(2026, 0, 1);
    for (let n = 0; n < size; n++) {
      const at = new Date(start + (inOrder ? n : (n * 7_919) % size)).toISOString();
      index.add({
        id: `obj_${n}`,
        account_id: 'warm-up',
        collection_id: collections[n % 3]!,
        content: { text: WARM_WORDS.filter((_, w) => (n + w) % (w + 2) !== 0).join(' ') },
        created_at: at,
        updated_at: at,
        version: 1,
      });
    }
    const query = WARM_WORDS.map((word) => ids.get(word)!);
    for (let round = 0; round < 2; round++) {
      for (const from of [0, offset]) {
        await index.search(query.slice(0, 1), some, from, 10);
        await index.search(query, some, from, 10);
      }
    }
  }
}
