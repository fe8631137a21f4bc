import type { Query } from '@msw/data';
import type { CollectionRecord, ObjectRecord } from './store/records.ts';

/** A record `mock.db` refuses: the field and what is wrong with it. The data is unchanged. */
export class MockDbError extends Error {
  override name = 'MockDbError';
}

/** A query as `@msw/data` takes it: `(q) => q.where({ name: 'Recipes' })`. */
export type RecordQuery<T> = (query: Query<T>) => Query<T>;

/** The fields the API fills in itself: the id, the owner, the timestamps, an object's version. */
type SystemField = 'id' | 'account_id' | 'created_at' | 'updated_at' | 'version';

/**
 * A record as `create` takes it: its system fields may be left out, and are then filled as the
 * API fills them (an id from the mock's own sequence, the mock's clock, version 1, an object's
 * owner from its collection, a collection's from the first active key that may read, write and
 * search).
 */
export type NewRecord<T> = Omit<T, SystemField> & Partial<Pick<T, SystemField & keyof T>>;

/**
 * One kind of record, with `@msw/data`'s own verbs. What is written here is what the API serves
 * at once, and what the API writes is here: `mock.db` reads and writes the store itself. A write
 * is made in one synchronous step, as a request's, when it is called (behind a load or reset
 * still pending, after it); it returns a promise settled with its outcome, as `@msw/data`'s
 * writes do. Every record handed out is the
 * stored one, frozen: `update` changes a record, an assignment throws a TypeError (a change made
 * behind the store's back would leave its indexes, caches and state file serving the old one).
 */
export interface RecordTable<T> {
  /**
   * Adds a record, checked like a snapshot's (schema, owner, unique id and name); system fields
   * left out are filled as the API fills them.
   */
  create(values: NewRecord<T>): Promise<T>;
  findFirst(query: RecordQuery<T>): T | undefined;
  findMany(query?: RecordQuery<T>): T[];
  /** Changes the first match; the id, owner, parent and creation date cannot change. */
  update(query: RecordQuery<T> | T, options: { data: (draft: T) => void }): Promise<T | undefined>;
  /** Deletes the first match, permanently (a collection with its objects). */
  delete(query: RecordQuery<T> | T): Promise<T | undefined>;
  count(): number;
  all(): T[];
}

/** The mock's data for tests, typed from `openapi.yaml`'s schemas. */
export interface MockDb {
  collections: RecordTable<CollectionRecord>;
  objects: RecordTable<ObjectRecord>;
}
