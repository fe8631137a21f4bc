/**
 * What the store does to a record it is given: its own frozen copy with canonical timestamps,
 * and its size in stored JSON for the storage limit; and how a load's objects are grouped.
 */
import { jsonLength } from './json-length.ts';
import { frozenCopy } from './record-copy.ts';
import type { CollectionRecord, ObjectRecord } from './records.ts';

/**
 * The store's own copy of a loaded record, with timestamps in `toISOString()` form, which the
 * store's ordering relies on (fixed width, so string order is date order).
 */
const CANONICAL = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

export function ownCopy<T extends CollectionRecord | ObjectRecord>(
  record: T,
  owner?: Pick<CollectionRecord, 'id' | 'account_id'>,
): T {
  // @note Most snapshots are our own exports, already in this form: no Date parsing.
  const canonical = CANONICAL.test(record.created_at) && CANONICAL.test(record.updated_at);
  // @note The collection's own strings, not the snapshot's: once the snapshot is dropped, one
  // string per collection instead of two per object.
  if (canonical && owner === undefined) return frozenCopy(record);
  const fixed = { ...record };
  if (!CANONICAL.test(fixed.created_at))
    fixed.created_at = new Date(fixed.created_at).toISOString();
  if (!CANONICAL.test(fixed.updated_at))
    fixed.updated_at = new Date(fixed.updated_at).toISOString();
  if (owner) Object.assign(fixed, { collection_id: owner.id, account_id: owner.account_id });
  return frozenCopy(fixed);
}

/**
 * The objects grouped by collection (each group in the snapshot's order, groups in order of
 * first appearance).
 * @note Records copied one collection after another sit together in memory, so an update's or a
 * delete's short scans (the record's list in creation order) read
 * neighbouring memory instead of records scattered over the whole heap (docs/performance.md).
 */
export function byCollection(objects: readonly ObjectRecord[]): Iterable<ObjectRecord[]> {
  const groups = new Map<string, ObjectRecord[]>();
  // @note Indexed loops over a load's records: `for of` allocated an iterator result per record
  // until the loop was optimised.
  for (let i = 0; i < objects.length; i++) {
    const object = objects[i]!;
    const group = groups.get(object.collection_id);
    if (group) group.push(object);
    else groups.set(object.collection_id, [object]);
  }
  return groups.values();
}

/** Records a load places between two turns of the event loop. */
export const BATCH = 2_048;

/** The stored JSON of an object's content, in UTF-16 code units (what the limit counts). */
export function sizeOfContent(content: unknown): number {
  return jsonLength(content);
}

/** The stored JSON of a collection: its name and metadata. */
export function sizeOfCollection(record: Pick<CollectionRecord, 'name' | 'metadata'>): number {
  return record.name.length + sizeOfContent(record.metadata);
}
