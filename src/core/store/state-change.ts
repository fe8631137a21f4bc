import type { CollectionRecord, ObjectRecord } from './records.ts';

/**
 * One change to a mock's data, as it is made: what a journal (`--state-file`) appends so that
 * replaying the changes in order rebuilds the state. Each change says what a record *is* after
 * it (a whole record, or that it is gone), never how it changed, so replaying one twice, or over
 * a state that already holds it, changes nothing.
 */
export type StateChange =
  /** A collection was created or changed: the whole record. */
  | { readonly type: 'collection'; readonly record: CollectionRecord }
  /** An object was created or changed: the whole record. */
  | { readonly type: 'object'; readonly record: ObjectRecord }
  /** A collection is gone, and every object in it. */
  | { readonly type: 'collection-deleted'; readonly id: string }
  /** An object is gone. */
  | { readonly type: 'object-deleted'; readonly id: string }
  /** An account's id sequence moved to `position` (ids are never handed out twice). */
  | { readonly type: 'ids'; readonly account: string; readonly position: number }
  /** Everything was replaced (load, reset): the listener takes the whole state anew. */
  | { readonly type: 'replaced' };

/** Called synchronously after each change, in the order the changes are made. */
export type ChangeListener = (change: StateChange) => void;
