import { indexAtOrAfter } from './keyset-page.ts';
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
    // @note Creation dates come from a monotonic clock, so this is an append except after a load.
    const at = indexAtOrAfter(this.records, record);
    this.records.splice(at, 0, record);
    this.terms.splice(at, 0, packTerms(record.content));
  }

  replace(previous: T, next: T): void {
    const at = indexAtOrAfter(this.records, previous);
    if (this.records[at] !== previous) return;
    this.records[at] = next;
    this.terms[at] = packTerms(next.content);
  }

  remove(record: T): void {
    const at = indexAtOrAfter(this.records, record);
    if (this.records[at] !== record) return;
    this.records.splice(at, 1);
    this.terms.splice(at, 1);
  }
}
