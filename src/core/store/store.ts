import type { ApiKey } from '../api-key.ts';
import { Vocabulary } from '../search/vocabulary.ts';
import { wordLimit } from '../limits.ts';
import {
  SnapshotError,
  SnapshotLimitError,
  type Snapshot,
  type StateLimit,
} from '../snapshot/snapshot.ts';
import { CollectionIndex, type StoredCollection } from './collection-index.ts';
import { BATCH, byCollection, ownCopy, sizeOfCollection, sizeOfContent } from './loaded-records.ts';
import { ObjectList } from './object-list.ts';
import { changedRecord } from './record-copy.ts';
import type { Account, CollectionRecord, ObjectRecord } from './records.ts';
import type { ChangeListener, StateChange } from './state-change.ts';

export type { StoredCollection } from './collection-index.ts';
export { sizeOfCollection, sizeOfContent } from './loaded-records.ts';

/** An object record as the store holds it: frozen, replaced on every change. */
export type StoredObject = Readonly<ObjectRecord>;

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
  #collections = new CollectionIndex();
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
    return this.#collections.size;
  }

  /** The number of objects held. */
  get objectTotal(): number {
    return this.#objectById.size;
  }

  /** The account's collections, oldest first. */
  collectionsOf(accountId: string): readonly StoredCollection[] {
    return this.#collections.ofAccount(accountId);
  }

  /** Every collection, in no particular order. */
  allCollections(): Iterable<StoredCollection> {
    return this.#collections.values();
  }

  /** A collection, only if it belongs to the account. @see docs/spec-gaps.md GAP-ISOLATION */
  findCollection(accountId: string, id: string): StoredCollection | undefined {
    const record = this.#collections.get(id);
    return record?.account_id === accountId ? record : undefined;
  }

  /** A collection by id, whoever owns it (for `mock.db`, which is not an account). */
  collectionById(id: string): StoredCollection | undefined {
    return this.#collections.get(id);
  }

  findCollectionByName(accountId: string, name: string): StoredCollection | undefined {
    return this.#collections.byName(accountId, name);
  }

  /** The collection's objects, oldest first. */
  objectsOf(collectionId: string): readonly StoredObject[] {
    return this.#objectsByCollection.get(collectionId)?.list.records ?? [];
  }

  objectCount(collectionId: string): number {
    return this.objectsOf(collectionId).length;
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

  createCollection(values: CollectionRecord): StoredCollection {
    const record = ownCopy(values);
    this.#indexCollection(record);
    this.#changed({ type: 'collection', record });
    return record;
  }

  #indexCollection(record: StoredCollection): void {
    this.#bytes += sizeOfCollection(record);
    this.#collections.add(record);
  }

  updateCollection(
    previous: StoredCollection,
    change: (draft: CollectionRecord) => void,
  ): StoredCollection {
    const next = changedRecord(previous, change);
    this.#bytes += sizeOfCollection(next) - sizeOfCollection(previous);
    this.#collections.replace(previous, next);
    this.#changed({ type: 'collection', record: next });
    return next;
  }

  /**
   * Deletes a collection and every object in it, permanently: its shelf of objects is dropped
   * whole, so the cost is the ids to forget, not the size of the store. In one step, as every
   * write: no lookup or search sees the collection half deleted.
   * @see spec §3 (DEL-1, DEL-2, DEL-3)
   */
  deleteCollection(record: StoredCollection): { objectsDeleted: number } {
    const shelved = this.#objectsByCollection.get(record.id);
    const objects = shelved?.list.records ?? [];
    for (const object of objects) this.#objectById.delete(object.id);
    this.#bytes -= (shelved?.bytes ?? 0) + sizeOfCollection(record);
    this.#objectsByCollection.delete(record.id);
    this.#collections.remove(record);
    shelved?.list.releaseAll();
    this.#changed({ type: 'collection-deleted', id: record.id });
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

  #indexObject(shelved: Shelved, record: StoredObject, size = sizeOfContent(record.content)): void {
    // @note The list (and the search index) first: it is the step that can fail, and a write
    // is all or nothing.
    shelved.list.insert(record);
    shelved.bytes += size;
    this.#bytes += size;
    this.#objectById.set(record.id, record);
  }

  updateObject(previous: StoredObject, change: (draft: ObjectRecord) => void): StoredObject {
    const shelved = this.#objectsByCollection.get(previous.collection_id)!;
    const next = changedRecord(previous, change);
    // @note The list (and the search index) first, as in a create: all or nothing.
    shelved.list.replace(previous, next);
    const growth = sizeOfContent(next.content) - sizeOfContent(previous.content);
    shelved.bytes += growth;
    this.#bytes += growth;
    this.#objectById.set(next.id, next);
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
    return this.#collections.has(id) || this.#objectById.has(id);
  }

  /**
   * Replaces everything with `state`, yielding every BATCH records (run by `runInSlices`, which
   * lets the event loop run there). The old records, indexes and vocabulary are dropped whole
   * (not removed record by record), so the cost is building the new ones. Nothing sees this
   * store before the last slice.
   * @throws SnapshotError when an object names a collection its account does not have, or an id
   * is used twice: checks that `parseSnapshot` leaves to the load (a store that throws is
   * half built, and dropped); SnapshotLimitError before the state would pass one of `limits`.
   */
  *loading(state: Snapshot, limits: Record<StateLimit, number>): Generator<void, void> {
    const { maxObjects, maxStoredBytes } = limits;
    const maxWords = wordLimit(limits.maxWords);
    // @note Counted as the store is built, and each object checked before it is indexed, so no
    // limit, and no cap of V8's on the maps behind them, is ever passed: the first slice past a
    // limit throws, and the data stays as it was.
    if (state.objects.length > maxObjects)
      throw pastLimit(
        'maxObjects',
        maxObjects,
        `${state.objects.length} objects, past the mock’s limit of ${maxObjects}`,
      );
    const pastBytes = () =>
      pastLimit(
        'maxStoredBytes',
        maxStoredBytes,
        `more than the mock’s limit of ${maxStoredBytes} bytes of stored JSON`,
      );
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
      if (this.#bytes > maxStoredBytes) throw pastBytes();
      if (++placed % BATCH === 0) yield;
    }
    for (const group of byCollection(state.objects)) {
      const collectionId = group[0]!.collection_id;
      const owner = this.#collections.get(collectionId);
      const shelved = this.#shelvedFor(collectionId);
      for (let i = 0; i < group.length; i++) {
        const object = group[i]!;
        // @note The snapshot's last checks (`parseSnapshot` leaves them here): the objects come
        // grouped by collection, and the store's map of ids is built anyway.
        if (owner === undefined || owner.account_id !== object.account_id)
          throw new SnapshotError(
            `Object "${object.id}" names collection "${collectionId}", which its account does not have`,
          );
        if (this.#collections.has(object.id))
          throw new SnapshotError(`Duplicate id "${object.id}"`);
        // @note As an API write is checked (`MockState.roomForWords`): a string of n code units
        // holds at most n words, so the content's words are counted only near the limit.
        const size = sizeOfContent(object.content);
        if (this.#bytes + size > maxStoredBytes) throw pastBytes();
        const vocabulary = this.#vocabulary;
        if (
          vocabulary.size + size > maxWords &&
          vocabulary.size + vocabulary.unknownWords(object.content) > maxWords
        )
          throw pastLimit(
            'maxWords',
            maxWords,
            `more than the mock’s limit of ${maxWords} distinct search words`,
          );
        const known = this.#objectById.size;
        this.#indexObject(shelved, ownCopy(object, owner), size);
        // @note An id seen before replaced its entry instead of adding one: one lookup in a map
        // of every object instead of two (`has`, then `set`), a cache miss each at a million.
        if (this.#objectById.size === known) throw new SnapshotError(`Duplicate id "${object.id}"`);
        if (++placed % BATCH === 0) yield;
      }
    }
    this.#version += 1;
  }

  clear(): void {
    this.#version += 1;
    this.accounts = [];
    this.apiKeys = [];
    this.#vocabulary = new Vocabulary();
    this.#collections = new CollectionIndex();
    this.#objectById = new Map();
    this.#objectsByCollection = new Map();
    this.#bytes = 0;
  }
}

/** How each limit is raised, for the error that names it. */
const RAISED_BY: Record<StateLimit, string> = {
  maxObjects: 'maxObjects, or --max-objects',
  maxStoredBytes: 'maxStoredBytes, or --max-stored-bytes',
  maxWords: 'maxWords',
};

function pastLimit(limit: StateLimit, bound: number, holds: string): SnapshotLimitError {
  return new SnapshotLimitError(
    limit,
    bound,
    `The state holds ${holds}; load less, or raise the limit (${RAISED_BY[limit]}).`,
  );
}
