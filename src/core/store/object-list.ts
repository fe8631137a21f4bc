import { firstIndex } from '../primitives/binary-search.ts';
import { compareByCreation, insertSorted } from '../primitives/creation-order.ts';
import type { ObjectRecord } from './records.ts';
import type { Vocabulary } from '../search/vocabulary.ts';

/** A document number that marks a removed record (see {@link ObjectList.remove}). */
const REMOVED = -1;

/**
 * The objects of one collection in creation order, with each object's document number in the
 * store's search index at the same index. Every write to the list is made to the index in the
 * same step (`inverted-index.ts`), so the index always holds exactly the listed objects.
 */
export class ObjectList<T extends ObjectRecord> {
  readonly #records: T[] = [];
  /** The search index's number for each record, at the same index; {@link REMOVED} once removed. */
  readonly #documents: number[] = [];
  /**
   * Each record's creation date in ms, at the same index: what finding a record searches.
   * @note A binary search over the records reads a record, scattered in a large heap, at every
   * step (a tenth of a delete at a million objects); over these numbers it reads one array.
   */
  readonly #created: number[] = [];
  /** How many entries are marked {@link REMOVED} and not yet compacted away. */
  #removed = 0;
  #collectionId: string | undefined;

  constructor(private readonly vocabulary: Vocabulary) {
    vocabulary.index.attach(this.#documents);
  }

  /** The listed objects, oldest first. */
  get records(): readonly T[] {
    if (this.#removed > 0) this.#compact();
    return this.#records;
  }

  insert(record: T): void {
    const created = Date.parse(record.created_at);
    // @note Indexed first: the index is what can fail (its vocabulary at V8's map cap), and then
    // the list has not changed either.
    const document = this.vocabulary.index.add(record, created);
    this.#collectionId = record.collection_id;
    // @note Removed entries keep their place and their date, so the order holds with them in.
    const at = insertSorted(this.#records, record);
    // @note Almost always an append (creation order): `splice` would allocate an array for
    // nothing on every insert.
    if (at === this.#documents.length) {
      this.#documents.push(document);
      this.#created.push(created);
    } else {
      this.#documents.splice(at, 0, document);
      this.#created.splice(at, 0, created);
    }
  }

  replace(previous: T, next: T): void {
    const at = this.#indexOf(previous);
    if (at < 0) return;
    // @note Indexed first, as `insert`: a failure leaves the list as it was.
    this.vocabulary.index.replace(this.#documents[at]!, previous, next);
    this.#records[at] = next;
    this.#created[at] = Date.parse(next.created_at);
  }

  /**
   * Takes `record` out of the list and the search index.
   * @note Marked, and compacted away once removed entries are half the list or the list is next
   * read: three `splice`s per delete moved half of each array, which in a collection of 1,000
   * objects is 12 KB of memory that a large heap mostly holds out of the processor's cache.
   * Compacting once per so many deletes costs each of them a constant share.
   */
  remove(record: T): void {
    const at = this.#indexOf(record);
    if (at < 0) return;
    this.vocabulary.index.remove(this.#documents[at]!, record);
    this.#documents[at] = REMOVED;
    this.#removed += 1;
    if (2 * this.#removed > this.#documents.length) this.#compact();
  }

  /**
   * Drops the removed entries, in place (the index renumbers {@link #documents}, which it holds).
   */
  #compact(): void {
    const records = this.#records;
    const documents = this.#documents;
    const created = this.#created;
    let kept = 0;
    for (let i = 0; i < documents.length; i++) {
      if (documents[i] === REMOVED) continue;
      records[kept] = records[i]!;
      documents[kept] = documents[i]!;
      created[kept] = created[i]!;
      kept += 1;
    }
    records.length = kept;
    documents.length = kept;
    created.length = kept;
    this.#removed = 0;
  }

  /**
   * Where `record` is in the list, or -1: the run of records created in its millisecond, found
   * in {@link #created}, then the record by creation order within the run (usually of one).
   * @note Creation dates are `toISOString()` output, one string per millisecond, so equal
   * numbers are equal dates and the order of the numbers is the order of the dates. A removed
   * entry keeps its record until compacted, and is not the record found.
   */
  #indexOf(record: T): number {
    const created = this.#created;
    const records = this.#records;
    const ms = Date.parse(record.created_at);
    const first = firstIndex(created.length, (i) => created[i]! >= ms);
    const end = firstIndex(created.length, (i) => created[i]! > ms);
    const at =
      first + firstIndex(end - first, (i) => compareByCreation(records[first + i]!, record) >= 0);
    return records[at] === record && this.#documents[at] !== REMOVED ? at : -1;
  }

  /**
   * Takes every object out of the search index: the list is being dropped whole.
   * @note In one step, as every write: no request sees the index half released (a collection
   * of 100,000 objects holds the event loop for the figure in docs/performance.md).
   */
  releaseAll(): void {
    const { index } = this.vocabulary;
    const records = this.#records;
    const documents = this.#documents;
    for (let i = 0; i < records.length; i++) {
      if (documents[i] !== REMOVED) index.remove(documents[i]!, records[i]!);
    }
    index.detach(documents, this.#collectionId);
  }
}
