import { Collection } from '@msw/data';
import type { StandardSchemaV1 } from '@standard-schema/spec';
import type { ApiKey } from '../api-key.ts';
import { compareByCreation, insertSorted, removeSorted, replaceSorted } from './creation-order.ts';
import type { Snapshot } from './snapshot.ts';
import { standardSchema } from '../../openapi/standard-schema.ts';
import { ObjectList } from './object-list.ts';
import {
  collectionRecordSchema,
  objectRecordSchema,
  type Account,
  type CollectionRecord,
  type ObjectRecord,
} from './records.ts';

/** A collection record as `@msw/data` holds it (with its internal primary key). */
export type StoredCollection = Awaited<
  ReturnType<Collection<StandardSchemaV1<CollectionRecord, CollectionRecord>>['create']>
>;
/** An object record as `@msw/data` holds it. */
export type StoredObject = Awaited<
  ReturnType<Collection<StandardSchemaV1<ObjectRecord, ObjectRecord>>['create']>
>;

/**
 * A shallow copy with timestamps in `toISOString()` form, which the store's ordering relies on
 * (fixed width, so string order is date order). `@msw/data` deep-copies what it is given.
 */
function withTimestamps<T extends CollectionRecord | ObjectRecord>(record: T): T {
  return {
    ...record,
    created_at: new Date(record.created_at).toISOString(),
    updated_at: new Date(record.updated_at).toISOString(),
  };
}

const EMPTY_LIST = { records: [], terms: [] } as const;

/**
 * The mock's data: `@msw/data` collections of collections and objects, and beside them the indexes
 * that make reads cheap (`@msw/data` lookups are linear scans): by id, and per account / per
 * collection in creation order. Every write goes through this class, which keeps both in step.
 */
export class Store {
  readonly collections = new Collection({
    schema: standardSchema<CollectionRecord>(collectionRecordSchema),
  });
  readonly objects = new Collection({ schema: standardSchema<ObjectRecord>(objectRecordSchema) });

  accounts: Account[] = [];
  apiKeys: ApiKey[] = [];

  #collectionById = new Map<string, StoredCollection>();
  #collectionsByAccount = new Map<string, StoredCollection[]>();
  #collectionByName = new Map<string, StoredCollection>();
  #objectById = new Map<string, StoredObject>();
  #objectsByCollection = new Map<string, ObjectList<StoredObject>>();

  /** The account's collections, oldest first. */
  collectionsOf(accountId: string): readonly StoredCollection[] {
    return this.#collectionsByAccount.get(accountId) ?? [];
  }

  /** A collection, only if it belongs to the account. @see docs/spec-gaps.md GAP-ISOLATION */
  findCollection(accountId: string, id: string): StoredCollection | undefined {
    const record = this.#collectionById.get(id);
    return record?.account_id === accountId ? record : undefined;
  }

  findCollectionByName(accountId: string, name: string): StoredCollection | undefined {
    return this.#collectionByName.get(`${accountId}\u0000${name}`);
  }

  /** The collection's objects, oldest first, with their packed search terms at the same index. */
  objectListOf(collectionId: string): {
    readonly records: readonly StoredObject[];
    readonly terms: readonly string[];
  } {
    return this.#objectsByCollection.get(collectionId) ?? EMPTY_LIST;
  }

  /** The collection's objects, oldest first. */
  objectsOf(collectionId: string): readonly StoredObject[] {
    return this.#objectsByCollection.get(collectionId)?.records ?? [];
  }

  objectCount(collectionId: string): number {
    return this.#objectsByCollection.get(collectionId)?.records.length ?? 0;
  }

  /** An object, only if it belongs to the account and the collection. */
  findObject(accountId: string, collectionId: string, id: string): StoredObject | undefined {
    const record = this.#objectById.get(id);
    return record?.account_id === accountId && record.collection_id === collectionId
      ? record
      : undefined;
  }

  async createCollection(values: CollectionRecord): Promise<StoredCollection> {
    const record = await this.collections.create(values);
    this.#indexCollection(record);
    return record;
  }

  async updateCollection(
    previous: StoredCollection,
    change: (draft: CollectionRecord) => void,
  ): Promise<StoredCollection> {
    const next = await this.collections.update(previous, { data: change, strict: true });
    this.#collectionById.set(next.id, next);
    this.#collectionByName.delete(`${previous.account_id}\u0000${previous.name}`);
    this.#collectionByName.set(`${next.account_id}\u0000${next.name}`, next);
    replaceSorted(this.#collectionsByAccount.get(next.account_id) ?? [], previous, next);
    return next;
  }

  /**
   * Deletes a collection and every object in it, permanently.
   * @see spec §3 (DEL-1, DEL-2, DEL-3)
   */
  deleteCollection(record: StoredCollection): { objectsDeleted: number } {
    const objects = this.#objectsByCollection.get(record.id)?.records ?? [];
    for (const object of objects) {
      this.objects.delete(object);
      this.#objectById.delete(object.id);
    }
    this.#objectsByCollection.delete(record.id);
    this.collections.delete(record);
    this.#collectionById.delete(record.id);
    this.#collectionByName.delete(`${record.account_id}\u0000${record.name}`);
    removeSorted(this.#collectionsByAccount.get(record.account_id) ?? [], record);
    return { objectsDeleted: objects.length };
  }

  async createObject(values: ObjectRecord): Promise<StoredObject> {
    const record = await this.objects.create(values);
    this.#indexObject(record);
    return record;
  }

  async updateObject(
    previous: StoredObject,
    change: (draft: ObjectRecord) => void,
  ): Promise<StoredObject> {
    const next = await this.objects.update(previous, { data: change, strict: true });
    this.#objectById.set(next.id, next);
    this.#objectsByCollection.get(next.collection_id)?.replace(previous, next);
    return next;
  }

  deleteObject(record: StoredObject): void {
    this.objects.delete(record);
    this.#objectById.delete(record.id);
    this.#objectsByCollection.get(record.collection_id)?.remove(record);
  }

  /** Whether an id was ever handed out and is still in use (ids are never reused). */
  hasId(id: string): boolean {
    return this.#collectionById.has(id) || this.#objectById.has(id);
  }

  /** Replaces everything with `state`. */
  async load(state: Snapshot): Promise<void> {
    this.clear();
    this.accounts = state.accounts.map((account) => ({ ...account }));
    this.apiKeys = state.api_keys.map((key) => ({ ...key, permissions: [...key.permissions] }));
    for (const collection of state.collections)
      await this.createCollection(withTimestamps(collection));
    for (const object of state.objects) await this.createObject(withTimestamps(object));
  }

  /** Everything, as plain JSON, collections and objects in creation order. */
  export(): Snapshot {
    return structuredClone({
      accounts: this.accounts,
      api_keys: this.apiKeys,
      collections: [...this.#collectionById.values()].sort(compareByCreation),
      objects: [...this.#objectById.values()].sort(compareByCreation),
    });
  }

  clear(): void {
    this.collections.clear();
    this.objects.clear();
    this.accounts = [];
    this.apiKeys = [];
    this.#collectionById.clear();
    this.#collectionsByAccount.clear();
    this.#collectionByName.clear();
    this.#objectById.clear();
    this.#objectsByCollection.clear();
  }

  #indexCollection(record: StoredCollection): void {
    this.#collectionById.set(record.id, record);
    this.#collectionByName.set(`${record.account_id}\u0000${record.name}`, record);
    let list = this.#collectionsByAccount.get(record.account_id);
    if (!list) this.#collectionsByAccount.set(record.account_id, (list = []));
    insertSorted(list, record);
  }

  #indexObject(record: StoredObject): void {
    this.#objectById.set(record.id, record);
    let list = this.#objectsByCollection.get(record.collection_id);
    if (!list) this.#objectsByCollection.set(record.collection_id, (list = new ObjectList()));
    list.insert(record);
  }
}
