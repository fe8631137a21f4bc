import { Query } from '@msw/data';
import { MockDbError, type MockDb, type RecordQuery, type RecordTable } from './record-table.ts';
import { compileSchema, schemaErrorLine } from '../openapi/ajv.ts';
import { compareByCreation } from './primitives/creation-order.ts';
import { MAX_JSON_DEPTH } from './http.ts';
import { nestsDeeperThan, nonFiniteNumberAt } from './json-limits.ts';
import { notJsonAt } from './json-value.ts';
import { sizeOfContent } from './store/store.ts';
import type { MockState } from './store/mock-state.ts';
import {
  collectionRecordSchema,
  objectRecordSchema,
  type CollectionRecord,
  type ObjectRecord,
} from './store/records.ts';

const FULL = ['read', 'write', 'search'] as const;

const validators = {
  collection: compileSchema(collectionRecordSchema),
  object: compileSchema(objectRecordSchema),
};

function check(kind: 'collection' | 'object', record: unknown): void {
  // @note First: the checks after it walk the record, and a cycle would send one round for ever.
  const notJson = notJsonIn(record);
  if (notJson !== undefined) throw new MockDbError(`Invalid ${kind}: ${notJson}`);
  const validate = validators[kind];
  if (!validate(record)) {
    throw new MockDbError(`Invalid ${kind}: ${schemaErrorLine(validate.errors?.[0])}`);
  }
  const overflow = nonFiniteNumberAt(record);
  if (overflow !== undefined)
    throw new MockDbError(`Invalid ${kind}: ${overflow} is too large a number to store`);
  if (kind === 'object' && nestsDeeperThan((record as ObjectRecord).content, MAX_JSON_DEPTH - 1))
    throw new MockDbError(`Invalid object: /content nests deeper than the API accepts`);
}

/** Why a field of `record` is not a JSON value, naming it (`content.when is a Date, ...`). */
function notJsonIn(record: unknown): string | undefined {
  if (typeof record !== 'object' || record === null) return undefined;
  for (const field in record) {
    if (!Object.hasOwn(record, field)) continue;
    const value = (record as Record<string, unknown>)[field];
    const problem = value === undefined ? undefined : notJsonAt(value, field);
    if (problem !== undefined) return problem;
  }
  return undefined;
}

/** Refuses content that would take the search vocabulary past its limit (as the API's 507). */
function checkWords(state: MockState, content: unknown): void {
  const why = state.roomForWords(content, sizeOfContent(content));
  if (why !== undefined) throw new MockDbError(`Refused object: ${why}`);
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
 * `inTurn` runs a write at once, or behind a pending replacement of the state (`create-mock.ts`).
 */
export function createMockDb(state: MockState, inTurn: <T>(write: () => T) => Promise<T>): MockDb {
  const store = () => state.store;
  // @note Queries are `@msw/data`'s own `Query` (its public query builder), run over the store's
  // records: the verbs test authors know, with no second copy of the data.
  const firstOf = <T>(records: Iterable<T>, query: RecordQuery<T> | T): T | undefined => {
    if (typeof query !== 'function') return query as T;
    const test = (query as RecordQuery<T>)(new Query<T>());
    for (const record of records) if (test.test(record)) return record;
    return undefined;
  };
  const manyOf = <T>(records: Iterable<T>, query?: RecordQuery<T>): T[] => {
    if (!query) return [...records];
    const test = query(new Query<T>());
    return [...records].filter((record) => test.test(record));
  };
  // @note In creation order: collections, then each collection's objects, oldest first.
  const allCollections = () =>
    [...store().allCollections()].sort(compareByCreation) as CollectionRecord[];
  const allObjects = () =>
    allCollections().flatMap((c) => store().objectsOf(c.id)) as ObjectRecord[];
  // @note The record as stored now: a query may be a record read before a change.
  const storedCollection = (query: RecordQuery<CollectionRecord> | CollectionRecord) => {
    const record = firstOf(allCollections(), query);
    return record && store().collectionById(record.id);
  };
  const storedObject = (query: RecordQuery<ObjectRecord> | ObjectRecord) => {
    const record = firstOf(allObjects(), query);
    return record && store().objectById(record.id);
  };

  /** The account a collection created without one belongs to, as `NewRecord` says. */
  const defaultAccount = (): string => {
    const key = store().apiKeys.find(
      (k) => k.active && FULL.every((permission) => k.permissions.includes(permission)),
    );
    if (!key)
      throw new MockDbError(
        'Invalid collection: /account_id is missing, and no active key may read, write and search to say whose it is',
      );
    return key.account_id;
  };

  const collections: RecordTable<CollectionRecord> = {
    create: (given) =>
      inTurn(() => {
        const account = given.account_id ?? defaultAccount();
        const at = given.created_at ?? state.now();
        const values = {
          ...given,
          id: given.id ?? state.newId(account, 'col'),
          account_id: account,
          created_at: at,
          updated_at: given.updated_at ?? at,
        } as CollectionRecord;
        check('collection', values);
        const s = store();
        if (!s.accounts.some((account) => account.id === values.account_id))
          throw new MockDbError(`Invalid collection: /account_id names no account`);
        if (s.hasId(values.id)) throw new MockDbError(`Invalid collection: /id is in use`);
        if (s.findCollectionByName(values.account_id, values.name))
          throw new MockDbError(`Invalid collection: /name is taken in its account`);
        return s.createCollection(normalised(values));
      }),
    findFirst: (query) => firstOf(allCollections(), query),
    findMany: (query) => manyOf(allCollections(), query),
    update: (query, { data }) =>
      inTurn(() => {
        const current = storedCollection(query);
        if (!current) return undefined;
        const next = changed('collection', current, data);
        const holder = store().findCollectionByName(next.account_id, next.name);
        if (holder && holder.id !== next.id)
          throw new MockDbError(`Invalid collection: /name is taken in its account`);
        return store().updateCollection(current, (draft) => Object.assign(draft, next));
      }),
    delete: (query) =>
      inTurn(() => {
        const current = storedCollection(query);
        if (current) store().deleteCollection(current);
        return current;
      }),
    count: () => store().collectionTotal,
    all: () => allCollections(),
  };

  const objects: RecordTable<ObjectRecord> = {
    create: (given) =>
      inTurn(() => {
        const s = store();
        const account = given.account_id ?? s.collectionById(given.collection_id)?.account_id;
        if (account === undefined && typeof given.collection_id === 'string')
          throw new MockDbError(`Invalid object: /collection_id names no collection`);
        const at = given.created_at ?? state.now();
        const values = {
          ...given,
          id: given.id ?? (account === undefined ? undefined : state.newId(account, 'obj')),
          account_id: account,
          created_at: at,
          updated_at: given.updated_at ?? at,
          version: given.version ?? 1,
        } as ObjectRecord;
        check('object', values);
        const parent = s.collectionById(values.collection_id);
        if (!parent || parent.account_id !== values.account_id)
          throw new MockDbError(
            `Invalid object: /collection_id names no collection of account ${values.account_id}`,
          );
        if (s.hasId(values.id)) throw new MockDbError(`Invalid object: /id is in use`);
        checkWords(state, values.content);
        return s.createObject(normalised(values));
      }),
    findFirst: (query) => firstOf(allObjects(), query),
    findMany: (query) => manyOf(allObjects(), query),
    update: (query, { data }) =>
      inTurn(() => {
        const current = storedObject(query);
        if (!current) return undefined;
        const next = changed('object', current, data);
        checkWords(state, next.content);
        return store().updateObject(current, (draft) => Object.assign(draft, next));
      }),
    delete: (query) =>
      inTurn(() => {
        const current = storedObject(query);
        if (current) store().deleteObject(current);
        return current;
      }),
    count: () => store().objectTotal,
    all: () => manyOf(allObjects()),
  };

  return { collections, objects };
}
