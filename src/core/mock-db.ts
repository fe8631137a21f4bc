import type { Query } from '@msw/data';
import { compileSchema } from '../openapi/ajv.ts';
import { MAX_JSON_DEPTH } from './http.ts';
import { nestsDeeperThan, nonFiniteNumberAt } from './json-limits.ts';
import type { MockState } from './model/mock-state.ts';
import {
  collectionRecordSchema,
  objectRecordSchema,
  type CollectionRecord,
  type ObjectRecord,
} from './model/records.ts';
import type { Shelf } from './model/shelf.ts';

/** A record `mock.db` refuses: the field and what is wrong with it. The data is unchanged. */
export class MockDbError extends Error {
  override name = 'MockDbError';
}

/** A query as `@msw/data` takes it: `(q) => q.where({ name: 'Recipes' })`. */
export type RecordQuery<T> = (query: Query<T>) => Query<T>;

/**
 * One kind of record, with `@msw/data`'s own verbs. What is written here is what the API serves
 * at once, and what the API writes is here: the records live in `@msw/data` collections, and the
 * API's indexes are updated in the same step. Writes return promises and wait their turn behind
 * requests in flight, so neither ever sees the other half-done. Every record handed out is a
 * frozen copy: `update` changes a record, an assignment throws.
 */
export interface RecordTable<T> {
  /** Adds a record, checked like a snapshot's (schema, owner, unique id and name). */
  create(values: T): Promise<T>;
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

const validators = {
  collection: compileSchema(collectionRecordSchema),
  object: compileSchema(objectRecordSchema),
};

function check(kind: 'collection' | 'object', record: unknown): void {
  const validate = validators[kind];
  if (!validate(record)) {
    const error = validate.errors?.[0];
    throw new MockDbError(`Invalid ${kind}: ${error?.instancePath || '/'} ${error?.message}`);
  }
  const overflow = nonFiniteNumberAt(record);
  if (overflow !== undefined)
    throw new MockDbError(`Invalid ${kind}: ${overflow} is too large a number to store`);
  if (kind === 'object' && nestsDeeperThan((record as ObjectRecord).content, MAX_JSON_DEPTH - 1))
    throw new MockDbError(`Invalid object: /content nests deeper than the API accepts`);
}

/** A value and everything in it, frozen. */
function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}

/**
 * A record as `mock.db` hands it out: a frozen copy. Changing a record outside the store would
 * leave the API's indexes, caches and state file serving the old one (a rename that the list
 * shows but a create still refuses); an assignment to a frozen copy throws a TypeError at the
 * line that tried, and `update` is the way to change it.
 */
function handedOut<T>(record: T): T;
function handedOut<T>(record: T | undefined): T | undefined;
function handedOut<T>(record: T | undefined): T | undefined {
  return record === undefined ? undefined : deepFreeze(structuredClone(record));
}

/** Timestamps in `toISOString()` form, which the store's creation order relies on. */
function normalised<T extends CollectionRecord | ObjectRecord>(record: T): T {
  return {
    ...record,
    created_at: new Date(record.created_at).toISOString(),
    updated_at: new Date(record.updated_at).toISOString(),
  };
}

const FIXED = {
  collection: ['id', 'account_id', 'created_at'] as const,
  object: ['id', 'account_id', 'collection_id', 'created_at'] as const,
};

/** `draft` changed by `change`, checked; the record's fixed fields must be as they were. */
function changed<T extends CollectionRecord | ObjectRecord>(
  kind: 'collection' | 'object',
  record: T,
  change: (draft: T) => void,
): T {
  const draft = structuredClone({ ...record }) as T;
  change(draft);
  check(kind, draft);
  for (const field of FIXED[kind]) {
    const before = (record as Record<string, unknown>)[field];
    if ((draft as Record<string, unknown>)[field] !== before)
      throw new MockDbError(`Invalid ${kind}: /${field} cannot change`);
  }
  return normalised(draft);
}

/**
 * `mock.db`: the records of a mock, with `@msw/data`'s verbs, for tests to seed and inspect.
 * `exclusive` is the mock's request queue.
 */
export function createMockDb(
  state: MockState,
  exclusive: <T>(task: () => Promise<T>) => Promise<T>,
): MockDb {
  const store = () => state.store;
  const firstOf = <T>(
    shelves: Iterable<Shelf<T & { id: string }>>,
    query: RecordQuery<T> | T,
  ): T | undefined => {
    if (typeof query !== 'function') return query as T;
    for (const shelf of shelves) {
      const found = shelf.findFirst(query as never);
      if (found !== undefined) return found as T;
    }
    return undefined;
  };
  const manyOf = <T>(shelves: Iterable<Shelf<T & { id: string }>>, query?: RecordQuery<T>) =>
    [...shelves].flatMap((shelf) =>
      query ? (shelf.findMany(query as never) as T[]) : (shelf.all() as T[]),
    );

  const collections: RecordTable<CollectionRecord> = {
    create: (values) =>
      exclusive(async () => {
        check('collection', values);
        const s = store();
        if (!s.accounts.some((account) => account.id === values.account_id))
          throw new MockDbError(`Invalid collection: /account_id names no account`);
        if (s.hasId(values.id)) throw new MockDbError(`Invalid collection: /id is in use`);
        if (s.findCollectionByName(values.account_id, values.name))
          throw new MockDbError(`Invalid collection: /name is taken in its account`);
        return handedOut(await s.createCollection(normalised(values)));
      }),
    findFirst: (query) => handedOut(firstOf([store().collectionShelf], query)),
    findMany: (query) => manyOf([store().collectionShelf], query).map((r) => handedOut(r)),
    update: (query, { data }) =>
      exclusive(async () => {
        const s = store();
        const record = firstOf([s.collectionShelf], query);
        const current = record && s.collectionById(record.id);
        if (!current) return undefined;
        const next = changed('collection', current, data);
        const holder = s.findCollectionByName(next.account_id, next.name);
        if (holder && holder.id !== next.id)
          throw new MockDbError(`Invalid collection: /name is taken in its account`);
        return handedOut(await s.updateCollection(current, (draft) => Object.assign(draft, next)));
      }),
    delete: (query) =>
      exclusive(async () => {
        const s = store();
        const record = firstOf([s.collectionShelf], query);
        const current = record && s.collectionById(record.id);
        if (!current) return undefined;
        await s.deleteCollection(current);
        return handedOut(current);
      }),
    count: () => store().collectionShelf.size,
    all: () =>
      store()
        .collectionShelf.all()
        .map((r) => handedOut(r)),
  };

  const objects: RecordTable<ObjectRecord> = {
    create: (values) =>
      exclusive(async () => {
        check('object', values);
        const s = store();
        const parent = s.collectionById(values.collection_id);
        if (!parent || parent.account_id !== values.account_id)
          throw new MockDbError(
            `Invalid object: /collection_id names no collection of account ${values.account_id}`,
          );
        if (s.hasId(values.id)) throw new MockDbError(`Invalid object: /id is in use`);
        return handedOut(await s.createObject(normalised(values)));
      }),
    findFirst: (query) => handedOut(firstOf(store().objectShelves(), query)),
    findMany: (query) => manyOf(store().objectShelves(), query).map((r) => handedOut(r)),
    update: (query, { data }) =>
      exclusive(async () => {
        const s = store();
        const record = firstOf(s.objectShelves(), query);
        const current = record && s.objectById(record.id);
        if (!current) return undefined;
        const next = changed('object', current, data);
        return handedOut(await s.updateObject(current, (draft) => Object.assign(draft, next)));
      }),
    delete: (query) =>
      exclusive(async () => {
        const s = store();
        const record = firstOf(s.objectShelves(), query);
        const current = record && s.objectById(record.id);
        if (!current) return undefined;
        s.deleteObject(current);
        return handedOut(current);
      }),
    count: () => store().objectTotal,
    all: () => manyOf(store().objectShelves()).map((r) => handedOut(r)),
  };

  return { collections, objects };
}
