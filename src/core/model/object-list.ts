import { insertSorted, removeSorted, replaceSorted } from './creation-order.ts';
import type { ObjectRecord } from './records.ts';
import { packTerms, releaseTerms } from './search-index.ts';
import type { Vocabulary } from './vocabulary.ts';

/**
 * The objects of one collection in creation order, with each object's packed search terms at the
 * same index, so a search walks two arrays instead of looking every object up in a map. The
 * words' uses are counted in the store's vocabulary and given back on replace and remove.
 */
export class ObjectList<T extends ObjectRecord> {
  readonly records: T[] = [];
  readonly terms: string[] = [];

  constructor(private readonly vocabulary: Vocabulary) {}

  insert(record: T): void {
    const at = insertSorted(this.records, record);
    this.terms.splice(at, 0, packTerms(record.content, this.vocabulary));
  }

  replace(previous: T, next: T): void {
    const at = replaceSorted(this.records, previous, next);
    if (at < 0) return;
    releaseTerms(this.terms[at]!, this.vocabulary);
    this.terms[at] = packTerms(next.content, this.vocabulary);
  }

  remove(record: T): void {
    const at = removeSorted(this.records, record);
    if (at < 0) return;
    releaseTerms(this.terms[at]!, this.vocabulary);
    this.terms.splice(at, 1);
  }

  /** Gives back every object's words: the list is being dropped whole. */
  releaseAll(): void {
    for (const packed of this.terms) releaseTerms(packed, this.vocabulary);
  }
}
