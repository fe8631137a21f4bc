import { breathe } from '../primitives/breathe.ts';
import type { ApiKey } from '../api-key.ts';
import {
  compareByCreation,
  insertSorted,
  removeSorted,
  replaceSorted,
} from '../primitives/creation-order.ts';
import { jsonLength } from './json-length.ts';
import { ObjectList } from './object-list.ts';
import type { Account, CollectionRecord, ObjectRecord } from './records.ts';
import { changedRecord, frozenCopy } from './record-copy.ts';
import { SnapshotError, type Snapshot } from '../snapshot/snapshot.ts';
import type { ChangeListener, StateChange } from './state-change.ts';
import { Vocabulary } from '../search/vocabulary.ts';

/** A collection record as the store holds it: frozen, replaced on every change. */
export type StoredCollection = Readonly<CollectionRecord>;
/** An object record as the store holds it: frozen, replaced on every change. */
export type StoredObject = Readonly<ObjectRecord>;

/**
 * The store's own copy of a loaded record, with timestamps in `toISOString()` form, which the
 * store's ordering relies on (fixed width, so string order is date order).
 */
const CANONICAL = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

function ownCopy<T extends CollectionRecord | ObjectRecord>(
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

const BATCH = 2_048;

/** The stored JSON of an object's content, in UTF-16 code units (what the limit counts). */
export function sizeOfContent(content: unknown): number {
  return jsonLength(content);
}

/** The stored JSON of a collection: its name and metadata. */
export function sizeOfCollection(record: Pick<CollectionRecord, 'name' | 'metadata'>): number {
  return record.name.length + sizeOfContent(record.metadata);
}

/** One Answers collection's objects, in creation order. */
interface Shelved {
  readonly list: ObjectList<StoredObject>;
  /** The stored JSON of the objects' content, so a deleted collection gives it back at once. */
  bytes: number;
}

/**
 * The mock's data, the one truth, in plain maps and lists written in one synchronous step per
 * write: records by id, per account and per collection in creation order, and the search
 * vocabulary. Records are frozen and replaced, never changed (see `record-copy.ts`). Each
 * collection's objects have a list of their own, so deleting a collection drops the list whole
 * instead of removing its objects one by one from a shared array.
 * @see docs/decisions/plain-store.md
 */
export class Store {
  accounts: Account[] = [];
  /**
   * Frozen, records and list: a key changes only through a load (`mock.controls.load`, a reset),
   * which every cache of answers sees. A key deactivated in place would still be served.
   */
  apiKeys: readonly Readonly<ApiKey>[] = [];

  #vocabulary = new Vocabulary();
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

  /** The number of collections held. */
  get collectionTotal(): number {
    return this.#collectionById.size;
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
    return this.#objectsByCollection.get(collectionId)?.list.records.length ?? 0;
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

  /** Every collection of every account, in creation order (for `mock.db`). */
  collectionsInOrder(): StoredCollection[] {
    return [...this.#collectionById.values()].sort(compareByCreation);
  }

  /** Every object, collection by collection in creation order, each oldest first (for `mock.db`). */
  *objectsInOrder(): Iterable<StoredObject> {
    for (const collection of this.collectionsInOrder()) yield* this.objectsOf(collection.id);
  }

  createCollection(values: CollectionRecord): StoredCollection {
    const record = ownCopy(values);
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

  updateCollection(
    previous: StoredCollection,
    change: (draft: CollectionRecord) => void,
  ): StoredCollection {
    const next = changedRecord(previous, change);
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
      shelved = { list: new ObjectList(this.#vocabulary), bytes: 0 };
      this.#objectsByCollection.set(collectionId, shelved);
    }
    return shelved;
  }

  createObject(values: ObjectRecord): StoredObject {
    const shelved = this.#shelvedFor(values.collection_id);
    const record = ownCopy(values);
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

  updateObject(previous: StoredObject, change: (draft: ObjectRecord) => void): StoredObject {
    const shelved = this.#objectsByCollection.get(previous.collection_id)!;
    const next = changedRecord(previous, change);
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
   * (not removed record by record), so the cost is building the new ones; every BATCH records
   * the event loop is let run. Nothing sees this store before `load` resolves.
   * @throws SnapshotError when an object names a collection its account does not have, or an id
   * is used twice: checks that `parseSnapshot` leaves to the load (a store that throws is
   * half built, and dropped).
   */
  async load(state: Snapshot): Promise<void> {
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
    let placed = 0;
    for (const collection of state.collections) {
      this.#indexCollection(ownCopy(collection));
      if (++placed % BATCH === 0) await breathe();
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
        const known = this.#objectById.size;
        this.#indexObject(shelved, ownCopy(object, owner));
        // @note An id seen before replaced its entry instead of adding one: one lookup in a map
        // of every object instead of two (`has`, then `set`), a cache miss each at a million.
        if (this.#objectById.size === known) throw new SnapshotError(`Duplicate id "${object.id}"`);
        if (++placed % BATCH === 0) await breathe();
      }
    }
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
    this.#collectionById = new Map();
    this.#collectionsByAccount = new Map();
    this.#collectionByName = new Map();
    this.#objectById = new Map();
    this.#objectsByCollection = new Map();
    this.#bytes = 0;
  }
}
