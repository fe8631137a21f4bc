/**
 * The data of the independent Answers server, written from the spec alone: collections and their
 * objects per account, tombstones for what was deleted, a word index for search and link paging
 * over the list (newest first). A seeded variant breaks one rule here or in server.ts.
 */
import { createHash, randomUUID } from 'node:crypto';
import { storedBody, storedMeta } from './stored.ts';
import { tokenOf, type After } from './tokens.ts';
import type { VariantName } from './variants.ts';

export interface CollectionRecord {
  collectionId: string;
  account: string;
  title: string;
  meta: Record<string, unknown>;
  createdMs: number;
  changedMs: number;
  /** Creation sequence: breaks ties between equal `createdMs`. */
  seq: number;
  objectsTotal: number;
  /** Only the `soft-delete` variant keeps a deleted collection. */
  hidden: boolean;
  /** Only the `trash-bin` variant: deleted, unknown by id, yet still listed. */
  trashed?: boolean;
}

export interface ObjectRecord {
  objectId: number;
  collectionId: string;
  account: string;
  body: unknown;
  createdMs: number;
  changedMs: number;
  revision: number;
}

/**
 * What a lookup finds: the record, a tombstone (410), another account's live record (404, or 401
 * under the `notYours: 401` design) or nothing the caller may see (404).
 */
export type Found<T> =
  { state: 'here'; record: T } | { state: 'gone' } | { state: 'foreign' } | { state: 'absent' };

/**
 * How equal creation dates happen and are ordered (the spec states creation order only): `never`
 * (the clock moves at least 1 ms per write), `sequence` (a millisecond clock that may repeat, ties
 * by creation sequence) or `id` (a creation date of whole days, as a DATE column keeps, ties by
 * id: every collection made the same day ties).
 */
export type Ties = 'never' | 'sequence' | 'id';

/**
 * What an update does to metadata (the spec states no update): `merge` its top-level keys into
 * what is there, `replace` it whole, or `merge-patch` it as RFC 7396 says (nested objects merged,
 * a null removes a key).
 */
export type UpdateStyle = 'merge' | 'replace' | 'merge-patch';

/** RFC 7396: `patch` applied to `target`. */
function mergePatch(target: unknown, patch: unknown): unknown {
  if (patch === null || typeof patch !== 'object' || Array.isArray(patch)) return patch;
  const out: Record<string, unknown> =
    target !== null && typeof target === 'object' && !Array.isArray(target)
      ? { ...(target as Record<string, unknown>) }
      : {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete out[key];
    else out[key] = mergePatch(out[key], value);
  }
  return out;
}

/** One page of the list: its summaries and the "after" token of the next page, if any. */
interface Page {
  items: CollectionRecord[];
  next?: string;
}

/** Every word (letters and digits, lower case) of the string values in a JSON value. */
function wordsOf(value: unknown): string[] {
  if (typeof value === 'string') return value.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  if (Array.isArray(value)) return value.flatMap(wordsOf);
  if (value && typeof value === 'object') return Object.values(value).flatMap(wordsOf);
  return [];
}

const DAY = 86_400_000;

/** Where a list page starts after: a record's place in the order. */
type Place = Pick<CollectionRecord, 'createdMs' | 'seq' | 'collectionId'>;

export class Store {
  readonly #collections = new Map<string, CollectionRecord>();
  readonly #objects = new Map<number, ObjectRecord>();
  /** Tombstones: `c:<id>` or `o:<id>` to the account that deleted it. */
  readonly #gone = new Map<string, string>();
  /** The search index; an entry outlives its object only in the `search-finds-deleted` variant. */
  readonly #index = new Map<number, { record: ObjectRecord; words: string[] }>();
  /** Deleted collections the `deleted-still-listed` variant keeps listing. */
  readonly #ghosts: CollectionRecord[] = [];
  #seq = 0;
  #nextObjectId = 1000;
  #lastMs = 0;

  /**
   * An index that becomes consistent later: a new object is found by search only after this many
   * more searches of its account (0: at once). Counted in requests, not time, so tests of
   * `--settle` are as deterministic as the rest.
   */
  indexLag = 0;
  /** Searches so far, by account; and the count each object becomes searchable at. */
  readonly #searches = new Map<string, number>();
  readonly #searchableAt = new Map<number, number>();

  constructor(
    readonly variant: VariantName | undefined,
    readonly ties: Ties = 'sequence',
    readonly updateStyle: UpdateStyle = 'merge',
  ) {}

  /** The clock: never goes back; repeats as `ties` says; `at` backdates a seed. */
  #now(at?: number): number {
    if (at !== undefined) return at;
    const now = Date.now();
    if (this.ties === 'never') this.#lastMs = Math.max(this.#lastMs + 1, now);
    else if (this.ties === 'id') this.#lastMs = Math.max(this.#lastMs, now - (now % DAY));
    else this.#lastMs = Math.max(this.#lastMs, now);
    return this.#lastMs;
  }

  /** Newest first: by creation date, then by creation sequence (or by id, as `ties` says). */
  #newestFirst = (a: Place, b: Place): number => {
    if (b.createdMs !== a.createdMs) return b.createdMs - a.createdMs;
    if (this.ties === 'id')
      return a.collectionId < b.collectionId ? 1 : a.collectionId > b.collectionId ? -1 : 0;
    return b.seq - a.seq;
  };

  createCollection(account: string, title: string, meta: Record<string, unknown>, at?: number) {
    const now = this.#now(at);
    meta = storedMeta(meta, this.variant);
    // @note Under `ties: 'id'` the ids are a hash of the creation sequence: the order of ties is
    // then the same on every run of the same steps, so what it shows does not depend on chance.
    const collectionId =
      this.ties === 'id'
        ? createHash('sha256')
            .update(`collection ${this.#seq + 1}`)
            .digest('hex')
            .slice(0, 32)
            .replace(/^(.{8})(.{4})(.{4})(.{4})/, '$1-$2-$3-$4-')
        : randomUUID();
    const record: CollectionRecord = {
      collectionId,
      account,
      title,
      meta,
      createdMs: now,
      changedMs: now,
      seq: ++this.#seq,
      objectsTotal: 0,
      hidden: false,
    };
    this.#collections.set(record.collectionId, record);
    return record;
  }

  createObject(collection: CollectionRecord, body: unknown, at?: number): ObjectRecord {
    const now = this.#now(at);
    const record: ObjectRecord = {
      objectId: this.#nextObjectId++,
      collectionId: collection.collectionId,
      account: collection.account,
      body: storedBody(body, this.variant),
      createdMs: now,
      changedMs: now,
      revision: 1,
    };
    this.#objects.set(record.objectId, record);
    this.#index.set(record.objectId, { record, words: wordsOf(record.body) });
    const searched = this.#searches.get(record.account) ?? 0;
    if (this.indexLag > 0) this.#searchableAt.set(record.objectId, searched + this.indexLag);
    if (this.variant !== 'count-wrong') collection.objectsTotal += 1;
    collection.changedMs = now;
    return record;
  }

  findCollection(account: string, id: string, forDelete = false): Found<CollectionRecord> {
    const record = this.#collections.get(id);
    const anyAccount =
      this.variant === 'other-account-collection-readable' ||
      (forDelete && this.variant === 'other-account-can-delete');
    if (record?.trashed) return { state: 'absent' };
    if (record && (record.account === account || anyAccount)) {
      if (record.hidden && this.variant !== 'soft-delete') return { state: 'gone' };
      return { state: 'here', record };
    }
    if (record && !record.hidden) return { state: 'foreign' };
    return this.#gone.get(`c:${id}`) === account ? { state: 'gone' } : { state: 'absent' };
  }

  findObject(account: string, id: number): Found<ObjectRecord> {
    const record = this.#objects.get(id);
    if (record && (record.account === account || this.variant === 'object-other-account'))
      return { state: 'here', record };
    if (record) return { state: 'foreign' };
    return this.#gone.get(`o:${id}`) === account ? { state: 'gone' } : { state: 'absent' };
  }

  /** The newest live collection of an account (what the `get-ignores-id` variant serves). */
  newestOf(account: string): CollectionRecord | undefined {
    return this.#listed(account)[0];
  }

  /** Removes a collection and every object in it, for good; only tombstones stay. */
  deleteCollection(collection: CollectionRecord): number {
    const id = collection.collectionId;
    if (this.variant === 'soft-delete') collection.hidden = true;
    else if (this.variant === 'trash-bin') collection.trashed = true;
    else this.#collections.delete(id);
    if (this.variant === 'deleted-still-listed') this.#ghosts.push(collection);
    this.#gone.set(`c:${id}`, collection.account);
    if (this.variant === 'no-cascade') return 0;
    let removed = 0;
    for (const object of [...this.#objects.values()]) {
      if (object.collectionId !== id) continue;
      this.#objects.delete(object.objectId);
      this.#gone.set(`o:${object.objectId}`, object.account);
      if (this.variant !== 'search-finds-deleted') this.#index.delete(object.objectId);
      removed += 1;
    }
    return removed;
  }

  /**
   * Sets what an update names: the title, and metadata merged into what is there, or as
   * `updateStyle` says (this server's choice; the spec states no update).
   */
  updateCollection(
    collection: CollectionRecord,
    changes: { title?: string; meta?: Record<string, unknown> },
  ): CollectionRecord {
    if (changes.title !== undefined) collection.title = changes.title;
    if (changes.meta !== undefined) {
      const meta = storedMeta(changes.meta, this.variant);
      collection.meta =
        this.updateStyle === 'replace'
          ? meta
          : this.updateStyle === 'merge-patch'
            ? (mergePatch(collection.meta, meta) as Record<string, unknown>)
            : { ...collection.meta, ...meta };
    }
    collection.changedMs = this.#now();
    // @note The `update-collection-count-reset` variant builds the record anew from the request.
    if (this.variant === 'update-collection-count-reset') collection.objectsTotal = 0;
    return collection;
  }

  /** Replaces an object's body; its id, collection and creation date stay. */
  replaceObject(record: ObjectRecord, body: unknown): ObjectRecord {
    record.body = storedBody(body, this.variant);
    record.revision += 1;
    record.changedMs = this.#now();
    if (this.variant !== 'replace-object-index-stale')
      this.#index.set(record.objectId, { record, words: wordsOf(record.body) });
    return record;
  }

  /** Removes one object for good; a tombstone stays. */
  deleteObject(record: ObjectRecord): void {
    this.#objects.delete(record.objectId);
    this.#index.delete(record.objectId);
    this.#gone.set(`o:${record.objectId}`, record.account);
    const collection = this.#collections.get(record.collectionId);
    if (collection && this.variant !== 'delete-object-count-stale') collection.objectsTotal -= 1;
  }

  #listed(account: string): CollectionRecord[] {
    const everyone = this.variant === 'list-shows-other-account';
    const live = [...this.#collections.values(), ...this.#ghosts].filter(
      (c) => (everyone || c.account === account) && !c.hidden,
    );
    if (this.variant === 'list-unordered')
      return live.sort((a, b) => a.objectsTotal - b.objectsTotal || this.#newestFirst(a, b));
    return live.sort(this.#newestFirst);
  }

  /**
   * One page of the account's collections, newest first. `after` says where the page before
   * ended (see tokens.ts); a page ends where the next one starts, so a walk sees every item once.
   */
  list(account: string, size: number, after: After | undefined): Page {
    // @note Only the `page-token-carries-account` variant's tokens carry an account.
    const all = this.#listed(after?.kind === 'place' ? (after.account ?? account) : account);
    let start = 0;
    if (after?.kind === 'offset') start = after.offset;
    else if (after?.kind === 'id') {
      const at = all.findIndex((c) => c.collectionId === after.collectionId);
      start = at < 0 ? all.length : at + 1;
    } else if (after) {
      // The first item after the token's place in the order, whether that item still exists.
      const place: Place =
        after.kind === 'place'
          ? { createdMs: after.createdMs, seq: after.seq, collectionId: '' }
          : { createdMs: after.createdMs, seq: 0, collectionId: after.collectionId };
      const exact = all.findIndex((c) =>
        after.kind === 'place' ? c.seq === after.seq : c.collectionId === after.collectionId,
      );
      start = exact >= 0 ? exact + 1 : all.findIndex((c) => this.#newestFirst(place, c) < 0);
      if (start < 0) start = all.length;
    }
    const items = all.slice(start, start + size);
    let last = start + items.length - 1;
    if (this.variant === 'walk-repeats' && items.length > 1) last -= 1;
    if (this.variant === 'walk-skips') last += 1;
    const page: Page = { items };
    const boundary = all[last];
    if (start + size < all.length && boundary)
      page.next = tokenOf(boundary, last + 1, this.variant, this.ties === 'id');
    return page;
  }

  /** The caller's listed collections from `start`, at most `size` (numbered and offset pages). */
  slice(account: string, start: number, size: number) {
    const all = this.#listed(account);
    return { items: all.slice(start, start + size), total: all.length };
  }

  /**
   * The caller's objects whose content holds every word of the query, most occurrences first;
   * `scope` narrows it to some collections.
   */
  search(account: string, query: string, scope: string[] | undefined) {
    const wanted = [...new Set(wordsOf(query))];
    const searched = (this.#searches.get(account) ?? 0) + 1;
    this.#searches.set(account, searched);
    if (wanted.length === 0 || this.variant === 'search-finds-nothing') return [];
    const hits: Array<{ record: ObjectRecord; rank: number }> = [];
    for (const { record, words } of this.#index.values()) {
      if ((this.#searchableAt.get(record.objectId) ?? 0) > searched) continue;
      if (record.account !== account && this.variant !== 'search-leaks-accounts') continue;
      if (scope && !scope.includes(record.collectionId)) continue;
      if (!wanted.every((word) => words.includes(word))) continue;
      const rank = words.filter((word) => wanted.includes(word)).length;
      hits.push({ record, rank });
    }
    return hits.sort((a, b) => b.rank - a.rank || b.record.objectId - a.record.objectId);
  }
}
