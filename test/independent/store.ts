/**
 * The data of the independent Answers server, written from the spec alone: collections and their
 * objects per account, tombstones for what was deleted, a word index for search and link paging
 * over the list (newest first). A seeded variant breaks one rule here or in server.ts.
 */
import { randomUUID } from 'node:crypto';
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

/** What a lookup finds: the record, a tombstone (410) or nothing the caller may see (404). */
export type Found<T> = { state: 'here'; record: T } | { state: 'gone' } | { state: 'absent' };

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

/** Newest first: by creation date, then by creation sequence. */
function newestFirst(a: CollectionRecord, b: CollectionRecord): number {
  return b.createdMs - a.createdMs || b.seq - a.seq;
}

function tokenOf(record: CollectionRecord): string {
  return Buffer.from(`${record.createdMs}.${record.seq}`).toString('base64url');
}

/** The (createdMs, seq) a page token stands for, or undefined when it is not one. */
export function readToken(token: string): { createdMs: number; seq: number } | undefined {
  const match = /^(\d{1,16})\.(\d{1,12})$/.exec(Buffer.from(token, 'base64url').toString());
  return match ? { createdMs: Number(match[1]), seq: Number(match[2]) } : undefined;
}

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

  constructor(readonly variant: VariantName | undefined) {}

  /** The clock: never goes back, may repeat (ties are broken by `seq`); `at` backdates a seed. */
  #now(at?: number): number {
    if (at !== undefined) return at;
    this.#lastMs = Math.max(this.#lastMs, Date.now());
    return this.#lastMs;
  }

  createCollection(account: string, title: string, meta: Record<string, unknown>, at?: number) {
    const now = this.#now(at);
    meta = stored(meta, this.variant);
    const record: CollectionRecord = {
      collectionId: randomUUID(),
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
      body,
      createdMs: now,
      changedMs: now,
      revision: 1,
    };
    this.#objects.set(record.objectId, record);
    this.#index.set(record.objectId, { record, words: wordsOf(body) });
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
    return this.#gone.get(`c:${id}`) === account ? { state: 'gone' } : { state: 'absent' };
  }

  findObject(account: string, id: number): Found<ObjectRecord> {
    const record = this.#objects.get(id);
    if (record && (record.account === account || this.variant === 'object-other-account'))
      return { state: 'here', record };
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

  #listed(account: string): CollectionRecord[] {
    const everyone = this.variant === 'list-shows-other-account';
    const live = [...this.#collections.values(), ...this.#ghosts].filter(
      (c) => (everyone || c.account === account) && !c.hidden,
    );
    if (this.variant === 'list-unordered')
      return live.sort((a, b) => a.objectsTotal - b.objectsTotal || newestFirst(a, b));
    return live.sort(newestFirst);
  }

  /**
   * One page of the account's collections, newest first. `after` is the token of the last item
   * of the page before; a page ends where the next one starts, so a walk sees every item once.
   */
  list(account: string, size: number, after: { createdMs: number; seq: number } | undefined) {
    const all = this.#listed(account);
    let start = 0;
    if (after) {
      const exact = all.findIndex((c) => c.seq === after.seq);
      start =
        exact >= 0
          ? exact + 1
          : all.findIndex(
              (c) =>
                c.createdMs < after.createdMs ||
                (c.createdMs === after.createdMs && c.seq < after.seq),
            );
      if (start < 0) start = all.length;
    }
    const items = all.slice(start, start + size);
    let last = start + items.length - 1;
    if (this.variant === 'walk-repeats' && items.length > 1) last -= 1;
    if (this.variant === 'walk-skips') last += 1;
    const page: Page = { items };
    const boundary = all[last];
    if (start + size < all.length && boundary) page.next = tokenOf(boundary);
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

/** Metadata as the variants that mangle it store it; as sent otherwise. */
function stored(
  meta: Record<string, unknown>,
  variant: VariantName | undefined,
): Record<string, unknown> {
  const mangle = (value: unknown): unknown => {
    if (variant === 'metadata-unicode-mangled' && typeof value === 'string')
      return Buffer.from(value, 'utf8').toString('latin1');
    if (variant === 'metadata-numbers-int32' && typeof value === 'number') return value | 0;
    if (variant === 'metadata-nested-flattened' && value !== null && typeof value === 'object')
      return String(value);
    if (Array.isArray(value)) return value.map(mangle);
    if (value !== null && typeof value === 'object') return each(value as Record<string, unknown>);
    return value;
  };
  const each = (record: Record<string, unknown>) =>
    Object.fromEntries(Object.entries(record).map(([k, v]) => [k, mangle(v)]));
  return each(meta);
}
