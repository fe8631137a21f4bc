import { insertSorted, removeSorted, replaceSorted } from './creation-order.ts';
import type { ObjectRecord } from './records.ts';
import type { Vocabulary } from './vocabulary.ts';

/**
 * The objects of one collection in creation order, with each object's document number in the
 * store's search index at the same index. Every write to the list is made to the index in the
 * same step (`inverted-index.ts`), so the index always holds exactly the listed objects.
 */
export class ObjectList<T extends ObjectRecord> {
  readonly records: T[] = [];
  /** The search index's number for each record, at the same index. */
  readonly documents: number[] = [];
  #collectionId: string | undefined;

  constructor(private readonly vocabulary: Vocabulary) {
    vocabulary.index.attach(this.documents);
  }

  insert(record: T): void {
    this.#collectionId = record.collection_id;
    const at = insertSorted(this.records, record);
    const document = this.vocabulary.index.add(record);
    // @note Almost always an append (creation order): `splice` would allocate an array for
    // nothing on every insert.
    if (at === this.documents.length) this.documents.push(document);
    else this.documents.splice(at, 0, document);
  }

  replace(previous: T, next: T): void {
    const at = replaceSorted(this.records, previous, next);
    if (at < 0) return;
    this.vocabulary.index.replace(this.documents[at]!, previous, next);
  }

  remove(record: T): void {
    const at = removeSorted(this.records, record);
    if (at < 0) return;
    this.vocabulary.index.remove(this.documents[at]!, record);
    this.documents.splice(at, 1);
  }

  /** Takes every object out of the search index: the list is being dropped whole. */
  releaseAll(): void {
    const { index } = this.vocabulary;
    for (let i = 0; i < this.records.length; i++) {
      index.remove(this.documents[i]!, this.records[i]!);
    }
    index.detach(this.documents, this.#collectionId);
  }
}
