/**
 * The data of the independent Answers server, written from the spec alone: collections and their
 * objects per account, tombstones for what was deleted, a word index for search and link paging
 * over the list (newest first). A seeded variant breaks one rule here or in server.ts.
 */
import { createHash, randomUUID } from 'node:crypto';
import { keptKeys, storedBody, storedMeta } from './stored.ts';
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
  /** Only the `list-metadata-as-created` variant: the metadata as it was made, which the list shows. */
  createdMeta?: Record<string, unknown>;
  /** Only the `rename-not-in-summaries` variant: the title as it was made, which the list shows. */
  createdTitle?: string;
}

export interface ObjectRecord {
  objectId: number;
  collectionId: string;
  account: string;
  body: unknown;
  createdMs: number;
  changedMs: number;
  revision: number;
  /** Only the `patch-object-system-fields-lost` variant: written back without its system fields. */
  slim?: boolean;
  /**
   * Under the `cascade: 'delayed'` design, once its collection is deleted: when (Date.now()) the
   * cascade removes it. Until then a get and a search still answer it; a write finds it gone.
   */
  cascadeAt?: number;
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
 * id: every collection made the same day ties), or `second` (a creation date of whole seconds, as
 * many databases and frameworks keep it, ties by creation sequence: what a quick sequence creates
 * mostly ties; no design row uses it, the test of explore's spacing of creations does).
 */
export type Ties = 'never' | 'sequence' | 'id' | 'second';

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

/** One page of a collection's objects, newest first, and the id the next page starts below. */
interface ObjectPage {
  items: ObjectRecord[];
  next?: number;
}

/**
 * What a partial update of an object does to its content, as `style` says for metadata: `merge`
 * its top-level members into what is there, `replace` it whole, or RFC 7396.
 */
function patched(body: unknown, patch: unknown, style: UpdateStyle): unknown {
  if (style === 'replace') return patch;
  if (style === 'merge-patch') return mergePatch(body, patch);
  const isRecord = (value: unknown): value is Record<string, unknown> =>
    value !== null && typeof value === 'object' && !Array.isArray(value);
  return isRecord(body) && isRecord(patch) ? { ...body, ...patch } : patch;
}

/** The batch a delete of the `cascade-batch-25` variant removes: `DELETE … LIMIT 25`. */
const CASCADE_BATCH = 25;
/** The objects the `scoped-search-first-25` variant loads of a scoped collection: one page. */
const SCOPE_PAGE = 25;

/** Every word (letters and digits, lower case) of the string values in a JSON value. */
function wordsOf(value: unknown): string[] {
  if (typeof value === 'string') return value.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  if (Array.isArray(value)) return value.flatMap(wordsOf);
  if (value && typeof value === 'object') return Object.values(value).flatMap(wordsOf);
  return [];
}

const DAY = 86_400_000;

/** An object in the search index: its words, and what a hit shows when not the record itself. */
interface IndexEntry {
  record: ObjectRecord;
  words: string[];
  shown?: ObjectRecord;
}

/** Where a list page starts after: a record's place in the order. */
type Place = Pick<CollectionRecord, 'createdMs' | 'seq' | 'collectionId'>;

export class Store {
  readonly #collections = new Map<string, CollectionRecord>();
  readonly #objects = new Map<number, ObjectRecord>();
  /** Tombstones: `c:<id>` or `o:<id>` to the account that deleted it. */
  readonly #gone = new Map<string, string>();
  /**
   * The search index; an entry outlives its object only in the `search-finds-deleted` variant.
   * `shown` is what a hit shows when it is not the record itself (`search-hit-stale-content`).
   */
  readonly #index = new Map<number, IndexEntry>();
  /** Deleted collections the `deleted-still-listed` variant keeps listing. */
  readonly #ghosts: CollectionRecord[] = [];
  /** Deleted objects the `deleted-object-still-listed` variant keeps in its collection's list. */
  readonly #objectGhosts: ObjectRecord[] = [];
  /**
   * The per-collection shards a scoped search reads, under `scoped-search-finds-deleted-collection`
   * only: a collection's delete drops its objects from the index, not from its shard.
   */
  readonly #shards = new Map<string, IndexEntry[]>();
  #seq = 0;
  #nextObjectId = 1000;
  #lastMs = 0;

  /**
   * An index that becomes consistent later: a new object is found by search only after this many
   * more searches of its account (0: at once). Counted in requests, not time, so tests of
   * `--settle` are as deterministic as the rest.
   */
  indexLag = 0;
  /**
   * How long, in ms, a deleted collection's objects outlive it (the `cascade: 'delayed'` design: a
   * cascade run by a background job); 0: removed with it. Read against Date.now(), no timers.
   */
  cascadeMs = 0;
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
    else if (this.ties === 'second') this.#lastMs = Math.max(this.#lastMs, now - (now % 1000));
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
    meta = keptKeys(storedMeta(meta, this.variant), this.variant);
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
      ...(this.variant === 'list-metadata-as-created'
        ? { createdMeta: structuredClone(meta) }
        : {}),
      ...(this.variant === 'rename-not-in-summaries' ? { createdTitle: title } : {}),
    };
    this.#collections.set(record.collectionId, record);
    return record;
  }

  createObject(collection: CollectionRecord, body: unknown, at?: number): ObjectRecord {
    const now = this.#now(at);
    const record: ObjectRecord = {
      objectId: this.#newObjectId(),
      collectionId: collection.collectionId,
      account: collection.account,
      body: storedBody(body, this.variant),
      createdMs: now,
      changedMs: now,
      revision: 1,
    };
    this.#objects.set(record.objectId, record);
    this.#index.set(record.objectId, {
      record,
      words: wordsOf(record.body),
      // @note The `search-hit-stale-content` and `hit-object-differs` variants' index keeps the
      // document it was first given and shows it in hits; a change refreshes the words only.
      ...(this.variant === 'search-hit-stale-content' || this.variant === 'hit-object-differs'
        ? { shown: structuredClone(record) }
        : {}),
    });
    const searched = this.#searches.get(record.account) ?? 0;
    if (this.indexLag > 0) this.#searchableAt.set(record.objectId, searched + this.indexLag);
    if (this.variant !== 'count-wrong') collection.objectsTotal += 1;
    collection.changedMs = now;
    return record;
  }

  /**
   * A new object's id: the next of a sequence that never goes back; under `object-id-reused`, one
   * more than the largest id still held (a table without AUTOINCREMENT), so the id of the newest
   * object is handed out again once it is deleted.
   */
  #newObjectId(): number {
    if (this.variant !== 'object-id-reused') return this.#nextObjectId++;
    let largest = 999;
    for (const id of this.#objects.keys()) largest = Math.max(largest, id);
    return largest + 1;
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

  /**
   * An object by id. `forWrite`: an object whose collection's delayed cascade has not run yet is
   * gone to a write (its row is locked for the cascade), though a get still answers it.
   */
  findObject(account: string, id: number, forWrite = false): Found<ObjectRecord> {
    this.#cascade();
    const record = this.#objects.get(id);
    if (record?.cascadeAt !== undefined && forWrite)
      return record.account === account ? { state: 'gone' } : { state: 'absent' };
    if (record && (record.account === account || this.variant === 'object-other-account'))
      return { state: 'here', record };
    if (record) return { state: 'foreign' };
    return this.#gone.get(`o:${id}`) === account ? { state: 'gone' } : { state: 'absent' };
  }

  /** How many objects the store holds, whatever their collections' state (for tests). */
  get heldObjects(): number {
    this.#cascade();
    return this.#objects.size;
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
    if (this.variant === 'cascade-unindexed-only') {
      for (const object of this.#objects.values())
        if (object.collectionId === id) this.#index.delete(object.objectId);
      return 0;
    }
    if (this.cascadeMs > 0) return this.#cascadeLater(id);
    let removed = 0;
    // @note The `cascade-batch-25` variant deletes the objects in one batch (`LIMIT 25`) and
    // never runs the next: past 25, a collection's objects outlive it.
    const batch = this.variant === 'cascade-batch-25' ? CASCADE_BATCH : Infinity;
    for (const object of [...this.#objects.values()]) {
      if (object.collectionId !== id) continue;
      if (removed >= batch) break;
      if (this.variant === 'scoped-search-finds-deleted-collection') {
        const entry = this.#index.get(object.objectId);
        if (entry) this.#shards.set(id, [...(this.#shards.get(id) ?? []), entry]);
      }
      this.#objects.delete(object.objectId);
      this.#gone.set(`o:${object.objectId}`, object.account);
      if (this.variant !== 'search-finds-deleted') this.#index.delete(object.objectId);
      removed += 1;
    }
    return removed;
  }

  /**
   * The delayed cascade (the `cascade: 'delayed'` design): a collection's objects marked with the
   * time they go, removed by the first read at or past it. The `cascade-never-completes`
   * variant's job never runs: they stay.
   */
  #cascadeLater(id: string): number {
    const at = this.variant === 'cascade-never-completes' ? Infinity : Date.now() + this.cascadeMs;
    let marked = 0;
    for (const object of this.#objects.values())
      if (object.collectionId === id) {
        object.cascadeAt = at;
        this.#gone.set(`o:${object.objectId}`, object.account);
        marked += 1;
      }
    return marked;
  }

  /** Runs what is due of the delayed cascade: objects past their time go, for good. */
  #cascade(): void {
    const now = Date.now();
    for (const object of [...this.#objects.values()])
      if (object.cascadeAt !== undefined && object.cascadeAt <= now) {
        this.#objects.delete(object.objectId);
        this.#index.delete(object.objectId);
      }
  }

  /**
   * Sets what an update names: the title, and metadata merged into what is there, or as
   * `updateStyle` says (this server's choice; the spec states no update).
   */
  updateCollection(
    collection: CollectionRecord,
    changes: { title?: string; meta?: Record<string, unknown> },
    style: UpdateStyle = this.updateStyle,
  ): CollectionRecord {
    if (changes.title !== undefined) collection.title = changes.title;
    if (changes.meta !== undefined)
      collection.meta = this.metaAfter(collection, changes.meta, style);
    collection.changedMs = this.#now();
    // @note The `update-collection-count-reset` variant builds the record anew from the request.
    if (this.variant === 'update-collection-count-reset') collection.objectsTotal = 0;
    return collection;
  }

  /** The metadata an update of `meta` would leave, as `style` says (nothing is stored). */
  metaAfter(
    collection: CollectionRecord,
    sent: Record<string, unknown>,
    style: UpdateStyle = this.updateStyle,
  ): Record<string, unknown> {
    const meta = storedMeta(sent, this.variant);
    return keptKeys(
      style === 'replace'
        ? meta
        : style === 'merge-patch'
          ? (mergePatch(collection.meta, meta) as Record<string, unknown>)
          : { ...collection.meta, ...meta },
      this.variant,
    );
  }

  /** Replaces an object's body; its id, collection and creation date stay. */
  replaceObject(record: ObjectRecord, body: unknown): ObjectRecord {
    record.body = storedBody(body, this.variant);
    record.revision += 1;
    record.changedMs = this.#now();
    if (this.variant !== 'replace-object-index-stale') this.#reindex(record);
    return record;
  }

  /**
   * A partial update of an object: `patch` merged into its body as `updateStyle` says (the same
   * switch as for metadata); its id, collection and creation date stay.
   */
  patchObject(record: ObjectRecord, patch: unknown): ObjectRecord {
    record.body = storedBody(patched(record.body, patch, this.updateStyle), this.variant);
    record.revision += 1;
    record.changedMs = this.#now();
    // @note The `patch-object-system-fields-lost` variant writes the document back as
    // `{ objectId, body, changedMs }`, and later reads serve that.
    if (this.variant === 'patch-object-system-fields-lost') record.slim = true;
    if (this.variant !== 'patch-object-index-stale') this.#reindex(record);
    return record;
  }

  /** The index entry of a changed object: its new words (what a hit shows stays, in one variant). */
  #reindex(record: ObjectRecord): void {
    const shown = this.#index.get(record.objectId)?.shown;
    this.#index.set(record.objectId, {
      record,
      words: wordsOf(record.body),
      ...(shown ? { shown } : {}),
    });
  }

  /** Removes one object for good; a tombstone stays. */
  deleteObject(record: ObjectRecord): void {
    // @note The `deleted-object-still-listed` variant's object list is a per-collection
    // document an object delete does not touch.
    if (this.variant === 'deleted-object-still-listed') this.#objectGhosts.push(record);
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

  /** A collection's objects, newest first (by id: ids only grow). */
  #objectsOf(collection: CollectionRecord): ObjectRecord[] {
    const held = [...this.#objects.values(), ...this.#objectGhosts].filter(
      (o) => o.collectionId === collection.collectionId,
    );
    return held.sort((a, b) => b.objectId - a.objectId);
  }

  /**
   * One page of a collection's objects, newest first: `below` is the id the page before ended
   * at, so the next page starts below it whatever is created or deleted between pages.
   */
  listObjects(collection: CollectionRecord, size: number, below: number | undefined): ObjectPage {
    const all = this.#objectsOf(collection);
    const rest = below === undefined ? all : all.filter((o) => o.objectId < below);
    const items = rest.slice(0, size);
    const last = items.at(-1);
    return rest.length > size && last ? { items, next: last.objectId } : { items };
  }

  /** A collection's objects from `start`, at most `size` (numbered and offset pages). */
  sliceObjects(collection: CollectionRecord, start: number, size: number) {
    const all = this.#objectsOf(collection);
    return { items: all.slice(start, start + size), total: all.length };
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
    this.#cascade();
    const wanted = [...new Set(wordsOf(query))];
    const searched = (this.#searches.get(account) ?? 0) + 1;
    this.#searches.set(account, searched);
    if (wanted.length === 0 || this.variant === 'search-finds-nothing') return [];
    const hits: Array<{ record: ObjectRecord; rank: number }> = [];
    const entries = [...this.#index.values()];
    // @note The `scoped-search-finds-deleted-collection` variant searches a scoped collection in
    // its shard, which still holds the objects of a deleted collection.
    if (scope && this.variant === 'scoped-search-finds-deleted-collection')
      for (const id of scope) entries.push(...(this.#shards.get(id) ?? []));
    // @note The `scoped-search-first-25` variant loads each scoped collection's objects as one
    // page of 25 (oldest first) and searches those only.
    const loaded =
      scope && this.variant === 'scoped-search-first-25'
        ? new Set(
            scope.flatMap((id) =>
              [...this.#objects.values()]
                .filter((o) => o.collectionId === id)
                .sort((a, b) => a.objectId - b.objectId)
                .slice(0, SCOPE_PAGE)
                .map((o) => o.objectId),
            ),
          )
        : undefined;
    for (const { record, words, shown } of entries) {
      if ((this.#searchableAt.get(record.objectId) ?? 0) > searched) continue;
      if (record.account !== account && this.variant !== 'search-leaks-accounts') continue;
      if (scope && !scope.includes(record.collectionId)) continue;
      if (loaded && !loaded.has(record.objectId)) continue;
      if (!wanted.every((word) => words.includes(word))) continue;
      const rank = words.filter((word) => wanted.includes(word)).length;
      hits.push({ record: shown ?? record, rank });
    }
    return hits.sort((a, b) => b.rank - a.rank || b.record.objectId - a.record.objectId);
  }
}
