import type { ApiKey } from '../api-key.ts';
import { compareByCreation, insertSorted, removeSorted, replaceSorted } from './creation-order.ts';
import { ObjectList } from './object-list.ts';
import type { Account, CollectionRecord, ObjectRecord } from './records.ts';
import { Shelf, type Stored } from './shelf.ts';
import type { Snapshot } from './snapshot.ts';
import type { ChangeListener } from './state-change.ts';
import { Vocabulary } from './vocabulary.ts';

/** A collection record as `@msw/data` holds it (with its internal primary key). */
export type StoredCollection = Stored<CollectionRecord>;
/** An object record as `@msw/data` holds it. */
export type StoredObject = Stored<ObjectRecord>;

/**
 * A shallow copy with timestamps in `toISOString()` form, which the store's ordering relies on
 * (fixed width, so string order is date order). `@msw/data` deep-copies what it is given.
 */
const CANONICAL = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

function withTimestamps<T extends CollectionRecord | ObjectRecord>(record: T): T {
  // @note Most snapshots are our own exports, already in this form: no copy, no Date parsing.
  if (CANONICAL.test(record.created_at) && CANONICAL.test(record.updated_at)) return record;
  return {
    ...record,
    created_at: new Date(record.created_at).toISOString(),
    updated_at: new Date(record.updated_at).toISOString(),
  };
}

/** Lets the event loop run (I/O, timers) before the next batch of a long load. */
const breathe = (): Promise<void> =>
  new Promise((resolve) =>
    typeof setImmediate === 'function' ? setImmediate(resolve) : setTimeout(resolve, 0),
  );
const BATCH = 2_048;

/** The stored JSON of an object's content, in UTF-16 code units (what the limit counts). */
export function sizeOfContent(content: unknown): number {
  return JSON.stringify(content)?.length ?? 0;
}

/** The stored JSON of a collection: its name and metadata. */
export function sizeOfCollection(record: Pick<CollectionRecord, 'name' | 'metadata'>): number {
  return record.name.length + sizeOfContent(record.metadata);
}

/** One Answers collection's objects: where `@msw/data` holds them, and in creation order. */
interface Shelved {
  readonly shelf: Shelf<ObjectRecord>;
  readonly list: ObjectList<StoredObject>;
}

const EMPTY_LIST = { records: [], terms: [] } as const;

/**
 * The mock's data. `@msw/data` holds every record (see {@link Shelf}); beside it sit the indexes
 * that make reads cheap, updated in the same step as each write and never a second truth: by id,
 * per account and per collection in creation order, and the search vocabulary. Each Answers
 * collection's objects have a shelf of their own, so deleting a collection drops its shelf
 * instead of removing its objects one by one from a shared array.
 */
export class Store {
  accounts: Account[] = [];
  apiKeys: ApiKey[] = [];

  #vocabulary = new Vocabulary();
  #collections = new Shelf<CollectionRecord>();
  #collectionById = new Map<string, StoredCollection>();
  #collectionsByAccount = new Map<string, StoredCollection[]>();
  #collectionByName = new Map<string, StoredCollection>();
  #objectById = new Map<string, StoredObject>();
  #objectsByCollection = new Map<string, Shelved>();
  /** The stored JSON of each record (content, or name and metadata), for the storage limit. */
  #sizes = new Map<string, number>();
  #bytes = 0;

  /**
   * Told of every write once it is made (a journal listens). Unset while a store is being
   * loaded: a load is one change, reported by whoever swaps the loaded store in.
   */
  onChange: ChangeListener | undefined;

  /** The bytes of stored JSON the records hold (content of objects, name and metadata of collections). */
  get storedBytes(): number {
    return this.#bytes;
  }

  #account(id: string, size: number): void {
    this.#bytes += size - (this.#sizes.get(id) ?? 0);
    this.#sizes.set(id, size);
  }

  #forget(id: string): void {
    this.#bytes -= this.#sizes.get(id) ?? 0;
    this.#sizes.delete(id);
  }

  /** The search vocabulary of this store's objects. */
  get vocabulary(): Vocabulary {
    return this.#vocabulary;
  }

  /** Where `@msw/data` holds the collections (for `mock.db`). */
  get collectionShelf(): Shelf<CollectionRecord> {
    return this.#collections;
  }

  /** The number of objects held. */
  get objectTotal(): number {
    return this.#objectById.size;
  }

  /** The account's collections, oldest first. */
  collectionsOf(accountId: string): readonly StoredCollection[] {
    return this.#collectionsByAccount.get(accountId) ?? [];
  }

  /** Every collection, in no particular order. */
  allCollections(): Iterable<StoredCollection> {
    return this.#collectionById.values();
  }

  /** A collection, only if it belongs to the account. @see docs/spec-gaps.md GAP-ISOLATION */
  findCollection(accountId: string, id: string): StoredCollection | undefined {
    const record = this.#collectionById.get(id);
    return record?.account_id === accountId ? record : undefined;
  }

  /** A collection by id, whoever owns it (for `mock.db`, which is not an account). */
  collectionById(id: string): StoredCollection | undefined {
    return this.#collectionById.get(id);
  }

  findCollectionByName(accountId: string, name: string): StoredCollection | undefined {
    return this.#collectionByName.get(`${accountId}\u0000${name}`);
  }

  /** The collection's objects, oldest first, with their packed search terms at the same index. */
  objectListOf(collectionId: string): {
    readonly records: readonly StoredObject[];
    readonly terms: readonly string[];
  } {
    return this.#objectsByCollection.get(collectionId)?.list ?? EMPTY_LIST;
  }

  /** The collection's objects, oldest first. */
  objectsOf(collectionId: string): readonly StoredObject[] {
    return this.#objectsByCollection.get(collectionId)?.list.records ?? [];
  }

  objectCount(collectionId: string): number {
    return this.#objectsByCollection.get(collectionId)?.shelf.size ?? 0;
  }

  /** An object, only if it belongs to the account and the collection. */
  findObject(accountId: string, collectionId: string, id: string): StoredObject | undefined {
    const record = this.#objectById.get(id);
    return record?.account_id === accountId && record.collection_id === collectionId
      ? record
      : undefined;
  }

  /** An object by id, whoever owns it (for `mock.db`). */
  objectById(id: string): StoredObject | undefined {
    return this.#objectById.get(id);
  }

  /** Every shelf of objects, for `mock.db` queries across collections. */
  objectShelves(): Iterable<Shelf<ObjectRecord>> {
    return [...this.#objectsByCollection.values()].map((shelved) => shelved.shelf);
  }

  async createCollection(values: CollectionRecord): Promise<StoredCollection> {
    const record = await this.#collections.create(values);
    this.#account(record.id, sizeOfCollection(record));
    this.#collectionById.set(record.id, record);
    this.#collectionByName.set(`${record.account_id}\u0000${record.name}`, record);
    let list = this.#collectionsByAccount.get(record.account_id);
    if (!list) this.#collectionsByAccount.set(record.account_id, (list = []));
    insertSorted(list, record);
    this.onChange?.({ type: 'collection', record });
    return record;
  }

  async updateCollection(
    previous: StoredCollection,
    change: (draft: CollectionRecord) => void,
  ): Promise<StoredCollection> {
    const next = await this.#collections.update(previous, change);
    this.#account(next.id, sizeOfCollection(next));
    this.#collectionById.set(next.id, next);
    this.#collectionByName.delete(`${previous.account_id}\u0000${previous.name}`);
    this.#collectionByName.set(`${next.account_id}\u0000${next.name}`, next);
    replaceSorted(this.#collectionsByAccount.get(next.account_id) ?? [], previous, next);
    this.onChange?.({ type: 'collection', record: next });
    return next;
  }

  /**
   * Deletes a collection and every object in it, permanently: its shelf of objects is dropped
   * whole, so the cost is the ids to forget, not the size of the store.
   * @see spec §3 (DEL-1, DEL-2, DEL-3)
   */
  deleteCollection(record: StoredCollection): { objectsDeleted: number } {
    const shelved = this.#objectsByCollection.get(record.id);
    const objects = shelved?.list.records ?? [];
    for (const object of objects) {
      this.#objectById.delete(object.id);
      this.#forget(object.id);
    }
    this.#forget(record.id);
    shelved?.list.releaseAll();
    this.#objectsByCollection.delete(record.id);
    this.#collections.delete(record);
    this.#collectionById.delete(record.id);
    this.#collectionByName.delete(`${record.account_id}\u0000${record.name}`);
    removeSorted(this.#collectionsByAccount.get(record.account_id) ?? [], record);
    this.onChange?.({ type: 'collection-deleted', id: record.id });
    return { objectsDeleted: objects.length };
  }

  async createObject(values: ObjectRecord): Promise<StoredObject> {
    let shelved = this.#objectsByCollection.get(values.collection_id);
    if (!shelved) {
      shelved = { shelf: new Shelf(), list: new ObjectList(this.#vocabulary) };
      this.#objectsByCollection.set(values.collection_id, shelved);
    }
    const record = await shelved.shelf.create(values);
    this.#account(record.id, sizeOfContent(record.content));
    this.#objectById.set(record.id, record);
    shelved.list.insert(record);
    this.onChange?.({ type: 'object', record });
    return record;
  }

  async updateObject(
    previous: StoredObject,
    change: (draft: ObjectRecord) => void,
  ): Promise<StoredObject> {
    const shelved = this.#objectsByCollection.get(previous.collection_id)!;
    const next = await shelved.shelf.update(previous, change);
    this.#account(next.id, sizeOfContent(next.content));
    this.#objectById.set(next.id, next);
    shelved.list.replace(previous, next);
    this.onChange?.({ type: 'object', record: next });
    return next;
  }

  deleteObject(record: StoredObject): void {
    const shelved = this.#objectsByCollection.get(record.collection_id);
    shelved?.shelf.delete(record);
    shelved?.list.remove(record);
    this.#objectById.delete(record.id);
    this.#forget(record.id);
    this.onChange?.({ type: 'object-deleted', id: record.id });
  }

  /** Whether an id is in use by a collection or an object. */
  hasId(id: string): boolean {
    return this.#collectionById.has(id) || this.#objectById.has(id);
  }

  /**
   * Replaces everything with `state`. The old records, indexes and vocabulary are dropped whole
   * (not removed record by record), so the cost is building the new ones.
   */
  async load(state: Snapshot): Promise<void> {
    this.clear();
    this.accounts = state.accounts.map((account) => ({ ...account }));
    this.apiKeys = state.api_keys.map((key) => ({ ...key, permissions: [...key.permissions] }));
    let count = 0;
    for (const collection of state.collections) {
      await this.createCollection(withTimestamps(collection));
      if (++count % BATCH === 0) await breathe();
    }
    for (const object of state.objects) {
      await this.createObject(withTimestamps(object));
      if (++count % BATCH === 0) await breathe();
    }
  }

  /** Everything, as plain JSON, collections and objects in creation order. */
  export(): Omit<Snapshot, 'id_sequences'> {
    return structuredClone({
      accounts: this.accounts,
      api_keys: this.apiKeys,
      collections: [...this.#collectionById.values()].sort(compareByCreation),
      objects: [...this.#objectById.values()].sort(compareByCreation),
    });
  }

  clear(): void {
    this.accounts = [];
    this.apiKeys = [];
    this.#vocabulary = new Vocabulary();
    this.#collections = new Shelf();
    this.#collectionById = new Map();
    this.#collectionsByAccount = new Map();
    this.#collectionByName = new Map();
    this.#objectById = new Map();
    this.#objectsByCollection = new Map();
    this.#sizes = new Map();
    this.#bytes = 0;
  }
}
