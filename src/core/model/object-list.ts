import { insertSorted, removeSorted, replaceSorted } from './creation-order.ts';
import type { ObjectRecord } from './records.ts';
import { packTerms } from './search-index.ts';

/**
 * The objects of one collection in creation order, with each object's packed search terms at the
 * same index, so a search walks two arrays instead of looking every object up in a map.
 */
export class ObjectList<T extends ObjectRecord> {
  readonly records: T[] = [];
  readonly terms: string[] = [];

  insert(record: T): void {
    const at = insertSorted(this.records, record);
    this.terms.splice(at, 0, packTerms(record.content));
  }

  replace(previous: T, next: T): void {
    const at = replaceSorted(this.records, previous, next);
    if (at >= 0) this.terms[at] = packTerms(next.content);
  }

  remove(record: T): void {
    const at = removeSorted(this.records, record);
    if (at >= 0) this.terms.splice(at, 1);
  }
}
