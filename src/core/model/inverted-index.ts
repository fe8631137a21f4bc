import { compareByCreation } from './creation-order.ts';
import { COUNT_BITS, Postings, SATURATED, UNIT, type PostingList } from './postings.ts';
import { pageOfHits, sortedHits, topHits, type EachHit, type TieOrder } from './ranked-hits.ts';
import type { ObjectRecord } from './records.ts';
import { countWords, type WordIds } from './search-index.ts';

/** A search hit: the object and its score. */
export interface SearchHit {
  record: ObjectRecord;
  score: number;
}

/**
 * What one query word found in a document adds to its tally, beside its occurrences: exact in a
 * double as long as the occurrences stay below 2^32 and the words below 2^21.
 */
const FOUND = 2 ** 32;

/** Documents whose tallies a many-word search adds up at a time (256 KB of them). */
const BLOCK = 32_768;

/** The longest a search adds up tallies before it lets the event loop run. */
const TURN_MS = 10;

/** Lets the event loop run (I/O, timers, other work) before going on. */
const yieldToEventLoop = (): Promise<void> =>
  new Promise((resolve) =>
    typeof setImmediate === 'function' ? setImmediate(resolve) : setTimeout(resolve, 0),
  );

/** Pages up to this deep are ranked in one pass keeping the best hits; deeper, in two. */
const SHALLOW = 1_000;

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
  #live = 0;
  #inOrder = true;
  #latest: ObjectRecord | undefined;
  #collectionNumbers = new Map<string, number>();
  #freeCollectionNumbers: number[] = [];
  #collectionCount = 1;
  /** The object lists' document numbers, renumbered with the documents. */
  #lists = new Set<number[]>();
  /** Per document, while a search adds them up: query words found × {@link FOUND} + occurrences. */
  #tally = new Float64Array(0);

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

  /** Indexes a new object; returns its document number. */
  add(record: ObjectRecord): number {
    const document = this.#records.length;
    if (this.#latest !== undefined && compareByCreation(record, this.#latest) < 0) {
      this.#inOrder = false;
    } else {
      this.#latest = record;
    }
    if (document >= this.#collectionOf.length) {
      const grown = new Int32Array(Math.ceil(this.#collectionOf.length * 1.5) + 64);
      grown.set(this.#collectionOf);
      this.#collectionOf = grown;
    }
    this.#records.push(record);
    this.#collectionOf[document] = this.#collectionNumber(record.collection_id);
    for (const [word, count] of countWords(record.content)) {
      this.#postings.append(this.#vocabulary.use(word), document, count);
    }
    this.#live += 1;
    return document;
  }

  /** Indexes `next` in place of `previous` (the same object, changed), keeping its number. */
  replace(document: number, previous: ObjectRecord, next: ObjectRecord): void {
    if (compareByCreation(previous, next) !== 0) this.#inOrder = false;
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
    // @note Records are immutable (`@msw/data` replaces them on update), so the words of the
    // content are the words it was indexed with.
    for (const word of countWords(record.content).keys()) {
      const id = this.#vocabulary.idOf(word);
      if (id === undefined) continue;
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
    const { each, done } = await this.#hits(query, allowed);
    try {
      const records = this.#records;
      const tie: TieOrder = this.#inOrder
        ? (a, b) => a - b
        : (a, b) => compareByCreation(records[a]!, records[b]!);
      const ranked =
        offset + limit <= SHALLOW
          ? topHits(each, offset + limit, tie)
          : this.#inOrder
            ? pageOfHits(each, offset, limit)
            : sortedHits(each, offset, limit, tie);
      const first = offset + limit <= SHALLOW ? offset : 0;
      const page: SearchHit[] = [];
      for (let i = first; i < ranked.documents.length && page.length < limit; i++) {
        page.push({ record: records[ranked.documents[i]!]!, score: ranked.scores[i]! });
      }
      return { page, total: ranked.total };
    } finally {
      done();
    }
  }

  /** The hits of a query, in document order, with their scores. */
  async #hits(
    query: readonly number[],
    allowed: Uint8Array,
  ): Promise<{ each: EachHit; done: () => void }> {
    const postings = this.#postings;
    const collectionOf = this.#collectionOf;
    if (query.length === 1) {
      const word = query[0]!;
      const { entries, start, end } = postings.list(word);
      const each: EachHit = (visit) => {
        for (let i = start; i < end; i++) {
          const entry = entries[i]!;
          let count = entry & SATURATED;
          if (count === 0) continue;
          const document = entry >>> COUNT_BITS;
          if (allowed[collectionOf[document]!] === 0) continue;
          if (count === SATURATED) count = postings.countOf(word, entry);
          visit(document, 1 + count / (count + 1));
        }
      };
      return { each, done: () => undefined };
    }
    // @note Several words: each adds up, per document, in one array as long as the document
    // numbers, then the array is read back in document order over the span of the lists.
    if (this.#tally.length < this.#records.length) {
      this.#tally = new Float64Array(Math.ceil(this.#records.length * 1.25));
    }
    const tally = this.#tally;
    const lists = query.map((word) => postings.list(word));
    let low = this.#records.length;
    let high = -1;
    for (const { entries, start, end } of lists) {
      if (start === end) continue;
      low = Math.min(low, entries[start]! >>> COUNT_BITS);
      high = Math.max(high, entries[end - 1]! >>> COUNT_BITS);
    }
    // @note Block by block of documents, every word's postings in the block in turn: the block's
    // tallies stay in the processor's cache instead of each word sweeping the whole array (8 MB
    // at a million objects): a third faster for a query of many common words.
    // @note Between blocks, the event loop gets a turn every {@link TURN_MS}: a query of many
    // common words at a million objects reads ten million postings (about 80 ms here), which
    // must not hold up every other request and timer. Requests run one at a time
    // (`create-mock.ts`), so nothing writes to the index while a search waits.
    const cursors = lists.map((list) => list.start);
    let turn = performance.now();
    for (let block = low; block <= high; block += BLOCK) {
      const limit = (block + BLOCK) * UNIT;
      for (let w = 0; w < query.length; w++) {
        cursors[w] = this.#addUp(query[w]!, lists[w]!, cursors[w]!, limit, allowed, tally);
      }
      if (performance.now() - turn > TURN_MS) {
        await yieldToEventLoop();
        turn = performance.now();
      }
    }
    const each: EachHit = (visit) => {
      for (let document = low; document <= high; document++) {
        const value = tally[document]!;
        if (value === 0) continue;
        const matched = Math.floor(value / FOUND);
        const count = value - matched * FOUND;
        visit(document, matched + count / (count + 1));
      }
    };
    const done = () => {
      if (high >= low) tally.fill(0, low, high + 1);
    };
    return { each, done };
  }

  /**
   * Adds `word`'s postings from `from` on, up to the first entry at or past `limit` (a document
   * times {@link UNIT}), in the allowed collections to their documents' tallies; returns where
   * it stopped.
   */
  #addUp(
    word: number,
    { entries, end }: PostingList,
    from: number,
    limit: number,
    allowed: Uint8Array,
    tally: Float64Array,
  ): number {
    const collectionOf = this.#collectionOf;
    let i = from;
    for (; i < end; i++) {
      const entry = entries[i]!;
      if (entry >= limit) break;
      let count = entry & SATURATED;
      if (count === 0) continue;
      const document = entry >>> COUNT_BITS;
      if (allowed[collectionOf[document]!] === 0) continue;
      if (count === SATURATED) count = this.#postings.countOf(word, entry);
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
    for (let document = 0; document < this.#records.length; document++) {
      const record = this.#records[document];
      if (record === undefined) continue;
      renumbered[document] = records.length;
      collectionOf[records.length] = this.#collectionOf[document]!;
      records.push(record);
    }
    this.#postings.renumber(renumbered);
    for (const list of this.#lists) {
      for (let i = 0; i < list.length; i++) list[i] = renumbered[list[i]!] ?? -1;
    }
    this.#records = records;
    this.#collectionOf = collectionOf;
    this.#tally = new Float64Array(0);
    if (records.length === 0) {
      this.#inOrder = true;
      this.#latest = undefined;
    }
  }
}
