import { insertSorted, removeSorted, replaceSorted } from '../primitives/creation-order.ts';
import type { CollectionRecord } from './records.ts';

/** A collection record as the store holds it: frozen, replaced on every change. */
export type StoredCollection = Readonly<CollectionRecord>;

/**
 * The store's indexes of collections: by id, by name within an account, and per account in
 * creation order. Each write of a collection is one call here, so the three never disagree.
 */
export class CollectionIndex {
  readonly #byId = new Map<string, StoredCollection>();
  readonly #byAccount = new Map<string, StoredCollection[]>();
  readonly #byName = new Map<string, StoredCollection>();

  get size(): number {
    return this.#byId.size;
  }

  get(id: string): StoredCollection | undefined {
    return this.#byId.get(id);
  }

  has(id: string): boolean {
    return this.#byId.has(id);
  }

  /** Every collection, in no particular order. */
  values(): Iterable<StoredCollection> {
    return this.#byId.values();
  }

  /** The account's collections, oldest first. */
  ofAccount(accountId: string): readonly StoredCollection[] {
    return this.#byAccount.get(accountId) ?? [];
  }

  byName(accountId: string, name: string): StoredCollection | undefined {
    return this.#byName.get(nameKey(accountId, name));
  }

  add(record: StoredCollection): void {
    this.#byId.set(record.id, record);
    this.#byName.set(nameKey(record.account_id, record.name), record);
    let list = this.#byAccount.get(record.account_id);
    if (!list) this.#byAccount.set(record.account_id, (list = []));
    insertSorted(list, record);
  }

  replace(previous: StoredCollection, next: StoredCollection): void {
    this.#byId.set(next.id, next);
    this.#byName.delete(nameKey(previous.account_id, previous.name));
    this.#byName.set(nameKey(next.account_id, next.name), next);
    replaceSorted(this.#byAccount.get(next.account_id) ?? [], previous, next);
  }

  remove(record: StoredCollection): void {
    this.#byId.delete(record.id);
    this.#byName.delete(nameKey(record.account_id, record.name));
    removeSorted(this.#byAccount.get(record.account_id) ?? [], record);
  }
}

/** One key per name within an account (NUL cannot occur in either). */
const nameKey = (accountId: string, name: string) => `${accountId}\u0000${name}`;
