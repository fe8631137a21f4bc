import type { ApiKey } from '../api-key.ts';
import { compareByCreation, insertSorted, removeSorted, replaceSorted } from './creation-order.ts';
import { jsonLength } from './json-length.ts';
import { ObjectList } from './object-list.ts';
import type { Account, CollectionRecord, ObjectRecord } from './records.ts';
import { copyOf, Shelf, type Stored } from './shelf.ts';
import { recordMarks } from './record-marks.ts';
import { SnapshotError, type Snapshot } from './snapshot.ts';
import type { ChangeListener, StateChange } from './state-change.ts';
import { Vocabulary } from './vocabulary.ts';

/** A collection record as `@msw/data` holds it (with its internal primary key). */
export type StoredCollection = Stored<CollectionRecord>;
/** An object record as `@msw/data` holds it. */
export type StoredObject = Stored<ObjectRecord>;

/**
 * The store's own copy of a loaded record, with timestamps in `toISOString()` form, which the
 * store's ordering relies on (fixed width, so string order is date order).
 */
const CANONICAL = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

function ownCopy<T extends CollectionRecord | ObjectRecord>(record: T): T {
  const copy = copyOf(record);
  // @note Most snapshots are our own exports, already in this form: no Date parsing.
  if (!CANONICAL.test(copy.created_at)) copy.created_at = new Date(copy.created_at).toISOString();
  if (!CANONICAL.test(copy.updated_at)) copy.updated_at = new Date(copy.updated_at).toISOString();
  return copy;
}

/**
 * The objects grouped by collection (each group in the snapshot's order, groups in order of
 * first appearance).
 * @note Records copied one collection after another sit together in memory, so an update's or a
 * delete's short scans (the record's `@msw/data` collection, its list in creation order) read
 * neighbouring memory instead of records scattered over the whole heap: a delete at 1,000,000
 * objects spread over 1,000 collections went from 0.13 to 0.07 ms.
 */
function byCollection(objects: readonly ObjectRecord[]): Iterable<ObjectRecord[]> {
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

/** Lets the event loop run (I/O, timers) before the next batch of a long load. */
const breathe = (): Promise<void> =>
  new Promise((resolve) =>
    typeof setImmediate === 'function' ? setImmediate(resolve) : setTimeout(resolve, 0),
  );
const BATCH = 2_048;

/** The stored JSON of an object's content, in UTF-16 code units (what the limit counts). */
export function sizeOfContent(content: unknown): number {
  return jsonLength(content);
}

/** The stored JSON of a collection: its name and metadata. */
export function sizeOfCollection(record: Pick<CollectionRecord, 'name' | 'metadata'>): number {
  return record.name.length + sizeOfContent(record.metadata);
}

/** One Answers collection's objects: where `@msw/data` holds them, and in creation order. */
interface Shelved {
  readonly shelf: Shelf<ObjectRecord>;
  readonly list: ObjectList<StoredObject>;
  /** The stored JSON of the objects' content, so a deleted collection gives it back at once. */
  bytes: number;
}

/**
 * The mock's data. `@msw/data` holds every record (see {@link Shelf}); beside it sit the indexes
 * that make reads cheap, updated in the same step as each write and never a second truth: by id,
 * per account and per collection in creation order, and the search vocabulary. Each Answers
 * collection's objects have a shelf of their own, so deleting a collection drops its shelf
 * instead of removing its objects one by one from a shared array.
 */
export class Store {
  accounts: Account[] = [];
  /**
   * Frozen, records and list: a key changes only through a load (`mock.controls.load`, a reset),
   * which every cache of answers sees. A key deactivated in place would still be served.
   */
  apiKeys: readonly Readonly<ApiKey>[] = [];

  #vocabulary = new Vocabulary();
  #collections = new Shelf<CollectionRecord>();
  #collectionById = new Map<string, StoredCollection>();
  #collectionsByAccount = new Map<string, StoredCollection[]>();
  #collectionByName = new Map<string, StoredCollection>();
  #objectById = new Map<string, StoredObject>();
  #objectsByCollection = new Map<string, Shelved>();
  /**
   * The stored JSON of every record (content, or name and metadata), for the storage limit.
   * @note Kept as totals, each record's size worked out again from the record when it goes: a
   * map of sizes by id cost two lookups in a table of a million entries per write.
   */
  #bytes = 0;

  /**
   * Told of every write once it is made (a journal listens). Unset while a store is being
   * loaded: a load is one change, reported by whoever swaps the loaded store in.
   */
  onChange: ChangeListener | undefined;

  /**
   * Counts the changes made to this store: a read's answer computed at one version holds until
   * the next (see `read-cache.ts`).
   */
  #version = 0;

  get version(): number {
    return this.#version;
  }

  /** Every write ends here: counted, then told to the listener. */
  #changed(change: StateChange): void {
    this.#version += 1;
    this.onChange?.(change);
  }

  /** The bytes of stored JSON the records hold (content of objects, name and metadata of collections). */
  get storedBytes(): number {
    return this.#bytes;
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
    this.#indexCollection(record);
    this.#changed({ type: 'collection', record });
    return record;
  }

  #indexCollection(record: StoredCollection): void {
    this.#bytes += sizeOfCollection(record);
    this.#collectionById.set(record.id, record);
    this.#collectionByName.set(`${record.account_id}\u0000${record.name}`, record);
    let list = this.#collectionsByAccount.get(record.account_id);
    if (!list) this.#collectionsByAccount.set(record.account_id, (list = []));
    insertSorted(list, record);
  }

  async updateCollection(
    previous: StoredCollection,
    change: (draft: CollectionRecord) => void,
  ): Promise<StoredCollection> {
    const next = await this.#collections.update(previous, change);
    this.#bytes += sizeOfCollection(next) - sizeOfCollection(previous);
    this.#collectionById.set(next.id, next);
    this.#collectionByName.delete(`${previous.account_id}\u0000${previous.name}`);
    this.#collectionByName.set(`${next.account_id}\u0000${next.name}`, next);
    replaceSorted(this.#collectionsByAccount.get(next.account_id) ?? [], previous, next);
    this.#changed({ type: 'collection', record: next });
    return next;
  }

  /**
   * Deletes a collection and every object in it, permanently: its shelf of objects is dropped
   * whole, so the cost is the ids to forget, not the size of the store. Every lookup forgets
   * them at once; the search index lets the event loop run while a large collection leaves it
   * (the caller holds the request queue until this resolves).
   * @see spec §3 (DEL-1, DEL-2, DEL-3)
   */
  async deleteCollection(record: StoredCollection): Promise<{ objectsDeleted: number }> {
    const shelved = this.#objectsByCollection.get(record.id);
    const objects = shelved?.list.records ?? [];
    for (const object of objects) this.#objectById.delete(object.id);
    this.#bytes -= (shelved?.bytes ?? 0) + sizeOfCollection(record);
    this.#objectsByCollection.delete(record.id);
    this.#collections.delete(record);
    this.#collectionById.delete(record.id);
    this.#collectionByName.delete(`${record.account_id}\u0000${record.name}`);
    removeSorted(this.#collectionsByAccount.get(record.account_id) ?? [], record);
    this.#changed({ type: 'collection-deleted', id: record.id });
    await shelved?.list.releaseAll(breathe);
    return { objectsDeleted: objects.length };
  }

  #shelvedFor(collectionId: string): Shelved {
    let shelved = this.#objectsByCollection.get(collectionId);
    if (!shelved) {
      shelved = { shelf: new Shelf(), list: new ObjectList(this.#vocabulary), bytes: 0 };
      this.#objectsByCollection.set(collectionId, shelved);
    }
    return shelved;
  }

  async createObject(values: ObjectRecord): Promise<StoredObject> {
    const shelved = this.#shelvedFor(values.collection_id);
    const record = await shelved.shelf.create(values);
    this.#indexObject(shelved, record);
    this.#changed({ type: 'object', record });
    return record;
  }

  #indexObject(shelved: Shelved, record: StoredObject): void {
    const size = sizeOfContent(record.content);
    shelved.bytes += size;
    this.#bytes += size;
    this.#objectById.set(record.id, record);
    shelved.list.insert(record);
  }

  async updateObject(
    previous: StoredObject,
    change: (draft: ObjectRecord) => void,
  ): Promise<StoredObject> {
    const shelved = this.#objectsByCollection.get(previous.collection_id)!;
    const next = await shelved.shelf.update(previous, change);
    const growth = sizeOfContent(next.content) - sizeOfContent(previous.content);
    shelved.bytes += growth;
    this.#bytes += growth;
    this.#objectById.set(next.id, next);
    shelved.list.replace(previous, next);
    this.#changed({ type: 'object', record: next });
    return next;
  }

  deleteObject(record: StoredObject): void {
    const shelved = this.#objectsByCollection.get(record.collection_id);
    if (shelved) {
      const size = sizeOfContent(record.content);
      shelved.bytes -= size;
      this.#bytes -= size;
      shelved.shelf.delete(record);
      shelved.list.remove(record);
    }
    this.#objectById.delete(record.id);
    this.#changed({ type: 'object-deleted', id: record.id });
  }

  /** Whether an id is in use by a collection or an object. */
  hasId(id: string): boolean {
    return this.#collectionById.has(id) || this.#objectById.has(id);
  }

  /**
   * Replaces everything with `state`. The old records, indexes and vocabulary are dropped whole
   * (not removed record by record), so the cost is building the new ones.
   * @note Each record is the store's own copy, indexed as it is handed to `@msw/data`; the
   * handovers are awaited a batch at a time (one wait per batch, not one per record), before the
   * event loop is let run. Nothing sees this store before `load` resolves.
   * @throws SnapshotError when an object names a collection its account does not have, or an id
   * is used twice: checks that `parseSnapshot` leaves to the load (a store that throws is
   * half built, and dropped).
   */
  async load(state: Snapshot): Promise<void> {
    await recordMarks();
    this.clear();
    this.accounts = state.accounts.map((account) => ({ ...account }));
    this.apiKeys = Object.freeze(
      state.api_keys.map((key) =>
        Object.freeze({
          ...key,
          permissions: Object.freeze([...key.permissions]) as ApiKey['permissions'],
        }),
      ),
    );
    let pending: Array<Promise<unknown>> = [];
    let placed = 0;
    // @note Every BATCH records, the handovers still on their way (none when records are
    // adopted, see `record-marks.ts`) are awaited and the event loop is let run. Not an `await`
    // per record: each would cost a promise and a turn of the microtask queue.
    const settle = async () => {
      await Promise.all(pending);
      pending = [];
      await breathe();
    };
    for (const collection of state.collections) {
      const { record, stored } = this.#collections.place(ownCopy(collection));
      this.#indexCollection(record);
      if (stored !== undefined) pending.push(stored);
      if (++placed % BATCH === 0) await settle();
    }
    for (const group of byCollection(state.objects)) {
      const collectionId = group[0]!.collection_id;
      const owner = this.#collectionById.get(collectionId);
      const shelved = this.#shelvedFor(collectionId);
      for (let i = 0; i < group.length; i++) {
        const object = group[i]!;
        // @note The snapshot's last checks (`parseSnapshot` leaves them here): the objects come
        // grouped by collection, and the store's map of ids is built anyway.
        if (owner === undefined || owner.account_id !== object.account_id)
          throw new SnapshotError(
            `Object "${object.id}" names collection "${collectionId}", which its account does not have`,
          );
        if (this.#collectionById.has(object.id))
          throw new SnapshotError(`Duplicate id "${object.id}"`);
        const record = ownCopy(object);
        // @note The collection's own strings, not the snapshot's: once the snapshot is dropped,
        // one string per collection instead of two per object (about 60 B an object).
        record.collection_id = owner.id;
        record.account_id = owner.account_id;
        const { stored } = shelved.shelf.place(record);
        const known = this.#objectById.size;
        this.#indexObject(shelved, record);
        // @note An id seen before replaced its entry instead of adding one: one lookup in a map
        // of every object instead of two (`has`, then `set`), a cache miss each at a million.
        if (this.#objectById.size === known) throw new SnapshotError(`Duplicate id "${object.id}"`);
        if (stored !== undefined) pending.push(stored);
        if (++placed % BATCH === 0) await settle();
      }
    }
    await Promise.all(pending);
    this.#version += 1;
  }

  /** Everything, as plain JSON, collections and objects in creation order. */
  export(): Omit<Snapshot, 'id_sequences'> {
    return structuredClone({
      accounts: this.accounts,
      api_keys: this.apiKeys as ApiKey[],
      collections: [...this.#collectionById.values()].sort(compareByCreation),
      objects: [...this.#objectById.values()].sort(compareByCreation),
    });
  }

  clear(): void {
    this.#version += 1;
    this.accounts = [];
    this.apiKeys = [];
    this.#vocabulary = new Vocabulary();
    this.#collections = new Shelf();
    this.#collectionById = new Map();
    this.#collectionsByAccount = new Map();
    this.#collectionByName = new Map();
    this.#objectById = new Map();
    this.#objectsByCollection = new Map();
    this.#bytes = 0;
  }
}
