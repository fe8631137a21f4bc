import { compareByCreation } from '../primitives/creation-order.ts';
import { COUNT_BITS, SATURATED, UNIT } from './posting-entry.ts';
import { Postings, type PostingList } from './postings.ts';
import { rankHits } from './ranked-hits.ts';
import { FOUND, type HitReader, type TieOrder } from './tally.ts';
import { PostingReader, Tallies, TallyReader } from './hit-readers.ts';
import { warmUp } from './warm-up.ts';
import { WordCounter } from './word-counter.ts';
import { CollectionNumbers } from './collection-numbers.ts';
import type { ObjectRecord } from '../store/records.ts';
import { countWords, internAll, type WordIds } from './search-index.ts';

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
  readonly #collections = new CollectionNumbers();
  /** The object lists' document numbers, renumbered with the documents. */
  #lists = new Set<number[]>();
  /** Per document, while a search adds them up: query words found × {@link FOUND} + occurrences. */
  #tally = new Float64Array(64);
  readonly #counter: WordCounter;

  constructor(vocabulary: WordIds) {
    this.#vocabulary = vocabulary;
    this.#counter = new WordCounter(vocabulary);
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
    if (collectionId !== undefined) this.#collections.free(collectionId);
  }

  /**
   * Indexes a new object; returns its document number.
   * @param createdMs `Date.parse(record.created_at)`, when the caller has it already.
   */
  add(record: ObjectRecord, createdMs = Date.parse(record.created_at)): number {
    // @note Counted first, the only step that can fail (a vocabulary at V8's map cap): then
    // nothing else has changed.
    const counter = this.#counter;
    counter.count(record.content);
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
    this.#collectionOf[document] = this.#collections.numberOf(record.collection_id);
    this.#createdMs[document] = createdMs;
    for (let i = 0; i < counter.distinctCount; i++) {
      const id = counter.distinct[i]!;
      this.#vocabulary.addUse(id);
      this.#postings.append(id, document, counter.occurrences[id]!);
    }
    this.#live += 1;
    if (this.#live === WARM_AT && !warmed) {
      warmed = true;
      // @note Private data only: nothing it does can meet a request.
      warmUp((words) => new InvertedIndex(words));
    }
    return document;
  }

  /** Indexes `next` in place of `previous` (the same object, changed), keeping its number. */
  replace(document: number, previous: ObjectRecord, next: ObjectRecord): void {
    if (compareByCreation(previous, next) !== 0) {
      this.#inOrder = false;
      this.#createdMs[document] = Date.parse(next.created_at);
    }
    const before = countWords(previous.content);
    const after = countWords(next.content);
    const ids = internAll(this.#vocabulary, after.keys());
    this.#records[document] = next;
    let i = 0;
    for (const count of after.values()) {
      const id = ids[i++]!;
      if (this.#postings.set(id, document, count) === 'added') this.#vocabulary.addUse(id);
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
    const counter = this.#counter;
    counter.countKnown(record.content);
    for (let i = 0; i < counter.distinctCount; i++) {
      const id = counter.distinct[i]!;
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
   * @note Synchronous, as every operation of the mock: a search is one step, never interleaved
   * with a write (docs/decisions/one-way-to-answer.md).
   */
  search(
    query: readonly number[],
    collectionIds: readonly string[],
    offset: number,
    limit: number,
  ): { page: SearchHit[]; total: number } {
    const allowed = this.#collections.allowed(collectionIds);
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
      const tallies = this.#addUp(query);
      reader = new TallyReader(tallies, this.#collectionOf, allowed);
      done = () => tallies.clear();
    }
    try {
      const ranked = rankHits(reader, offset, limit, tie);
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
  #addUp(query: readonly number[]): Tallies {
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
