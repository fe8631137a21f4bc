/**
 * An independent Answers server, written from ../shared/spec/answers-service-spec.md alone
 * (nothing of src/core, src/seed, src/node or openapi.yaml), on `node:http`. It honours every rule
 * the spec states and makes its own choice wherever the spec says "not shown": paths, field
 * names, epoch-millisecond dates, link paging, a wrapped get, 410 for what was deleted and its
 * own error body. `variant` seeds one broken rule (see variants.ts).
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { authenticate, isRefusal, type Caller, type KeyRecord } from './auth.ts';
import {
  Store,
  type CollectionRecord,
  type Found,
  type ObjectRecord,
  type Ties,
  type UpdateStyle,
} from './store.ts';
import { objectTokenOf, readObjectToken, readToken } from './tokens.ts';
import type { VariantName } from './variants.ts';

/** The keys a server hands out: two of account A with less power, one of account B. */
export interface IndependentKeys {
  full: string;
  readonly: string;
  inactive: string;
  otherAccount: string;
}

export interface IndependentServer {
  /** The root, e.g. `http://127.0.0.1:40123`: the list is at `/v1/collections`. */
  url: string;
  keys: IndependentKeys;
  /** Forgets everything, the seed included: an empty store (explore's model is reset so). */
  empty(): void;
  /** How many objects the server holds, those it should have deleted included. */
  heldObjects(): number;
  close(): Promise<void>;
}

/**
 * How the list pages: next links in the body (the default), next links in an RFC 8288 `Link`
 * header (as GitHub's API pages), page numbers, offsets, or a page token in the body
 * (`?pageSize=5&pageToken=…`, answered `{ collections, nextPageToken }`, as Google's APIs do).
 */
export type Paging = 'links' | 'link-header' | 'pages' | 'offset' | 'cursor';

/**
 * The decisions the spec leaves open that this server makes one of several correct ways (see
 * designs.ts and docs/independent-server.md). Each default is the server's first choice.
 */
export interface Design {
  /** Another account's resource: 404, like one that never existed (default), or 401 (§7: "lacks permission"). */
  notYours?: 401 | 404;
  /** The account's own deleted resource: 410 Gone (default) or 404. */
  gone?: 404 | 410;
  /**
   * Search: `POST` with `{ q, scope }` (default, `body-scoped`), `POST` with `{ q }` and no
   * scope at all (`body`), or `GET ?q=` (`query`; a `scope` parameter narrows it, which no
   * description can send).
   */
  search?: 'body-scoped' | 'body' | 'query';
  /** Equal creation dates and how they are ordered (see Store). Default `sequence`. */
  ties?: Ties;
  /** What an update does to metadata (see Store). Default `merge`. */
  update?: UpdateStyle;
  /**
   * `roomy` (default): a body of at most 256 KiB. `tight`: at most 100 KiB (Express's default),
   * and no string longer than 65,535 characters (a TEXT column), else 422.
   */
  limits?: 'roomy' | 'tight';
  /**
   * A collection's delete and its objects: removed with it (`at-once`, default), or by a cascade
   * that completes later (`delayed`): for CASCADE_MS after the delete a get (and a search) still
   * answers them, then they are gone as `gone` says (§3 says removed permanently, not at once).
   */
  cascade?: 'at-once' | 'delayed';
  /**
   * `none` (default), or `per-field`: metadata over 8 KiB (compact UTF-8 JSON) or metadata or
   * content nested deeper than 8 levels is refused, 400 and nothing stored (§8: limits not shown).
   */
  fieldLimits?: 'none' | 'per-field';
  /**
   * How a collection is updated: one `PATCH` taking `title` and/or `meta` (`one`, default), or
   * `split`: the metadata replaced whole by `PUT …/collections/{id}/metadata` whose body is the
   * metadata (answered 200 with the collection as a get shows it), the name by `PATCH` with
   * `{ title }` alone (a `meta` there: 400, use the PUT).
   */
  updateOps?: 'one' | 'split';
  /**
   * What a search hit's `item` holds: the object's id and content alone (`content`), or the
   * whole object as a get shows it (`object`). Unset: the whole object, as before the switch.
   */
  hits?: 'content' | 'object';
}

/** Ways a correct server may differ from another: none breaks a stated rule. */
export interface Habits {
  /** Search reads `scope` and ignores it (the spec states no filter). */
  scopeIgnored?: boolean;
  /** A hit's text marks the query's words with `<em>` and is cut to its first 40 characters. */
  highlight?: boolean;
  /** Numbered pages past the last: `404` (Django REST framework's "Invalid page"), or `clamp` (the last page again). */
  pastLast?: '404' | 'clamp';
}

/** A hit's view of an object: its text cut short, with the query's words marked. */
function highlighted(view: Record<string, unknown>, query: string): Record<string, unknown> {
  const words: string[] = query.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  const mark = (text: string) =>
    text
      .slice(0, 40)
      .replace(/[\p{L}\p{N}]+/gu, (word) =>
        words.includes(word.toLowerCase()) ? `<em>${word}</em>` : word,
      );
  const body = view.body as { text?: unknown } | undefined;
  return typeof body?.text === 'string'
    ? { ...view, body: { ...body, text: `${mark(body.text)}…` } }
    : view;
}

interface Reply {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

const MAX_BODY = 256 * 1024;
const TIGHT_BODY = 100 * 1024;
const TIGHT_STRING = 65_535;

/** The length of the longest string (key or value) in a JSON value. */
function longestString(value: unknown): number {
  if (typeof value === 'string') return value.length;
  if (Array.isArray(value)) return Math.max(0, ...value.map(longestString));
  if (value !== null && typeof value === 'object')
    return Math.max(
      0,
      ...Object.entries(value).map(([k, v]) => Math.max(k.length, longestString(v))),
    );
  return 0;
}
/** How long a delayed cascade takes (the `cascade: 'delayed'` design). */
export const CASCADE_MS = 300;
/** The `per-field` limits: the largest metadata in bytes of compact UTF-8 JSON, the deepest nesting. */
const FIELD_LIMITS = { metadataBytes: 8192, depth: 8 } as const;

/** How deep a JSON value nests: a scalar 0, an object or array of scalars 1. */
function depthOf(value: unknown): number {
  if (value === null || typeof value !== 'object') return 0;
  const children = Array.isArray(value) ? value : Object.values(value);
  return 1 + Math.max(0, ...children.map(depthOf));
}

/** Why `per-field` limits refuse metadata (after the update, when one), or undefined. */
function metadataRefusal(meta: unknown): string | undefined {
  if (depthOf(meta) > FIELD_LIMITS.depth)
    return `metadata may nest at most ${FIELD_LIMITS.depth} levels`;
  if (Buffer.byteLength(JSON.stringify(meta)) > FIELD_LIMITS.metadataBytes)
    return `metadata may be at most ${FIELD_LIMITS.metadataBytes} bytes of JSON`;
  return undefined;
}
const PAGE_DEFAULT = 10;
const PAGE_MAX = 50;

const problem = (status: number, text: string, code: number, headers?: Record<string, string>) =>
  ({ status, body: { problem: text, code }, headers }) satisfies Reply;

const NOT_FOUND = problem(404, 'nothing here', 31);
const GONE = problem(410, 'this was deleted and is gone for good', 32);

/** The routes: a pattern, the methods it offers and the operation for each. */
const routesOf = (
  search: Design['search'],
  updateOps: Design['updateOps'],
): Array<{ pattern: RegExp; methods: Record<string, string> }> => [
  { pattern: /^\/v1\/collections$/, methods: { GET: 'list' } },
  { pattern: /^\/api\/answers\/collections$/, methods: { POST: 'create' } },
  {
    pattern: /^\/api\/answers\/collections\/([^/]+)$/,
    methods: { GET: 'get', DELETE: 'delete', PATCH: 'update' },
  },
  // @note The `split` design's sub-resource: the body is the metadata, replaced whole.
  ...(updateOps === 'split'
    ? [{ pattern: /^\/api\/answers\/collections\/([^/]+)\/metadata$/, methods: { PUT: 'meta' } }]
    : []),
  {
    pattern: /^\/api\/answers\/collections\/([^/]+)\/objects$/,
    methods: { GET: 'objects', POST: 'add' },
  },
  {
    pattern: /^\/api\/answers\/objects\/([^/]+)$/,
    methods: { GET: 'object', PUT: 'replace', PATCH: 'patch', DELETE: 'remove' },
  },
  {
    pattern: /^\/api\/answers\/query$/,
    methods: search === 'query' ? { GET: 'query' } : { POST: 'query' },
  },
];
const WRITES = new Set(['create', 'delete', 'add', 'update', 'meta', 'replace', 'patch', 'remove']);

function readBody(request: IncomingMessage, max: number): Promise<Buffer | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= max) chunks.push(chunk);
    });
    request.on('end', () => resolve(size > max ? undefined : Buffer.concat(chunks)));
    request.on('error', reject);
  });
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

class IndependentApp {
  store: Store;
  /** The `stale-cache-after-delete` variant: 200 answers of reads, by account and URL. */
  readonly #cache = new Map<string, Reply>();
  readonly #routes: ReturnType<typeof routesOf>;
  readonly #maxBody: number;

  constructor(
    readonly variant: VariantName | undefined,
    readonly keys: ReadonlyMap<string, KeyRecord>,
    readonly fallbackAccount: string,
    readonly paging: Paging = 'links',
    readonly foreignOrigin?: string,
    readonly habits: Habits = {},
    readonly design: Design = {},
  ) {
    this.store = this.newStore();
    this.#routes = routesOf(design.search, design.updateOps);
    this.#maxBody = design.limits === 'tight' ? TIGHT_BODY : MAX_BODY;
  }

  newStore(): Store {
    const store = new Store(this.variant, this.design.ties, this.design.update);
    store.cascadeMs = this.design.cascade === 'delayed' ? CASCADE_MS : 0;
    return store;
  }

  /** Why the `per-field` limits refuse content, or undefined (always under `none`). */
  contentRefusal(content: unknown): Reply | undefined {
    if (this.design.fieldLimits !== 'per-field' || depthOf(content) <= FIELD_LIMITS.depth)
      return undefined;
    return problem(400, `content may nest at most ${FIELD_LIMITS.depth} levels`, 27);
  }

  /**
   * Metadata written as the update style says, unless the `per-field` limits refuse what it would
   * leave: 400 and nothing stored (the `refusal-half-applies` variant stores it, then refuses).
   */
  writeMeta(
    collection: CollectionRecord,
    changes: { title?: string; meta?: Record<string, unknown> },
    style?: UpdateStyle,
  ): Reply {
    const refused =
      this.design.fieldLimits === 'per-field' && changes.meta !== undefined
        ? metadataRefusal(this.store.metaAfter(collection, changes.meta, style))
        : undefined;
    if (refused && this.variant !== 'refusal-half-applies') return problem(400, refused, 27);
    const changed = this.store.updateCollection(collection, changes, style);
    if (refused) return problem(400, refused, 27);
    return { status: 200, body: { result: this.summary(changed, false) } };
  }

  /** What a lookup that found no record of the caller's answers: 404, 410 or 401 by design. */
  missing(found: Exclude<Found<unknown>, { state: 'here' }>): Reply {
    if (found.state === 'gone' && this.design.gone !== 404) return GONE;
    if (found.state === 'foreign' && this.design.notYours === 401)
      return problem(401, 'this key may not see that', 16, {
        'www-authenticate': 'Bearer realm="answers"',
      });
    return NOT_FOUND;
  }

  /** A collection as shown: in a list (on its first page or a later one) or alone. */
  summary(c: CollectionRecord, inList: boolean, laterPage = false) {
    const { collectionId, createdMs, changedMs } = c;
    // @note The `rename-not-in-summaries` variant's list reads a title written once, when the
    // collection was made: a rename shows on a get only.
    const title = inList && c.createdTitle !== undefined ? c.createdTitle : c.title;
    // @note The `list-metadata-as-created` variant's list reads a summary table written once,
    // when the collection was made: an update shows on a get only.
    const meta =
      inList && this.variant === 'list-metadata-as-created' ? (c.createdMeta ?? c.meta) : c.meta;
    // @note The `count-capped` variant counts the first page of a query of 20. The
    // `list-later-pages-count-zero` variant serves pages after the first by a query without the
    // join on the objects: a missing count reads as 0.
    const objectsTotal =
      this.variant === 'count-capped'
        ? Math.min(c.objectsTotal, 20)
        : laterPage && this.variant === 'list-later-pages-count-zero'
          ? 0
          : c.objectsTotal;
    if (inList && this.variant === 'metadata-missing')
      return { collectionId, title, objectsTotal, createdMs, changedMs };
    return { collectionId, title, meta, objectsTotal, createdMs, changedMs };
  }

  objectView(o: ObjectRecord) {
    const { objectId, collectionId, body, createdMs, changedMs, revision } = o;
    if (this.variant === 'system-fields-missing') return { objectId, body };
    // @note What the `patch-object-system-fields-lost` variant wrote back after a PATCH.
    if (o.slim) return { objectId, body, changedMs };
    if (this.variant === 'object-content-dropped')
      return { objectId, collectionId, createdMs, changedMs, revision };
    return { objectId, collectionId, body, createdMs, changedMs, revision };
  }

  async handle(request: IncomingMessage): Promise<Reply> {
    const url = new URL(request.url ?? '/', 'http://independent.invalid');
    const route = this.#routes.find((r) => r.pattern.test(url.pathname));
    if (!route) return NOT_FOUND;
    const operation = route.methods[request.method ?? ''];
    if (!operation)
      return problem(405, 'method not offered here', 35, {
        allow: Object.keys(route.methods).join(', '),
      });
    const caller = authenticate(request, this.keys, this.variant, this.fallbackAccount);
    if (isRefusal(caller)) {
      const challenge: Record<string, string> =
        caller.status === 401 ? { 'www-authenticate': 'Bearer realm="answers"' } : {};
      return problem(caller.status, caller.problem, caller.code, challenge);
    }
    if (WRITES.has(operation) && !caller.canWrite && this.variant !== 'readonly-can-write')
      return problem(401, 'this key may only read', 15, {
        'www-authenticate': 'Bearer realm="answers"',
      });
    let rawId: string;
    try {
      rawId = decodeURIComponent(route.pattern.exec(url.pathname)?.[1] ?? '');
    } catch {
      return NOT_FOUND;
    }
    let body: unknown;
    if (request.method === 'POST' || request.method === 'PUT' || request.method === 'PATCH') {
      const raw = await readBody(request, this.#maxBody);
      if (!raw) return problem(413, `a body may be at most ${this.#maxBody} bytes`, 23);
      try {
        body = JSON.parse(raw.toString('utf8') || 'null');
      } catch {
        return problem(400, 'the body is not JSON', 21);
      }
      if (this.design.limits === 'tight' && longestString(body) > TIGHT_STRING)
        return problem(422, `a text may be at most ${TIGHT_STRING} characters`, 26);
    }
    const cacheKey = `${caller.account} ${request.method} ${url.pathname}${url.search}`;
    const stale = this.variant === 'stale-cache-after-delete' && request.method === 'GET';
    const cached = stale ? this.#cache.get(cacheKey) : undefined;
    if (cached) return cached;
    if (this.variant === 'concurrent-count-lost' && operation === 'add') {
      // @note The count read, then the object written with an await between, then count + 1.
      const found = this.store.findCollection(caller.account, rawId);
      const before = found.state === 'here' ? found.record.objectsTotal : 0;
      await new Promise((resolve) => setImmediate(resolve));
      const reply = this.operate(operation, caller, rawId, url, body);
      if (found.state === 'here' && reply.status === 201) found.record.objectsTotal = before + 1;
      return reply;
    }
    if (
      this.variant === 'metadata-keys-written-apart' &&
      operation === 'update' &&
      isPlainObject(body) &&
      isPlainObject(body.meta)
    ) {
      // @note A row per metadata key, each written by its own statement with an await between:
      // updates sent at once interleave, and keys of different updates mix.
      const found = this.store.findCollection(caller.account, rawId);
      if (found.state !== 'here') return this.operate(operation, caller, rawId, url, body);
      for (const [name, value] of Object.entries(body.meta)) {
        await new Promise((resolve) => setImmediate(resolve));
        this.store.updateCollection(found.record, { meta: { [name]: value } });
      }
      const { meta: _written, ...rest } = body;
      return this.operate(operation, caller, rawId, url, rest);
    }
    const reply = this.operate(operation, caller, rawId, url, body);
    if (stale && reply.status === 200 && operation !== 'list') this.#cache.set(cacheKey, reply);
    return reply;
  }

  /**
   * A list page by number (`?page=2&per_page=5`, `{results, page, pages}`, as json-server and
   * Django REST framework do) or by offset (`?offset=10&limit=5`, `{results, total}`).
   */
  numberedPage(
    url: URL,
    slice: (start: number, size: number) => { items: unknown[]; total: number },
  ): Reply {
    const byPage = this.paging === 'pages';
    const sizeText = url.searchParams.get(byPage ? 'per_page' : 'limit');
    const size = sizeText === null ? PAGE_DEFAULT : Number(sizeText);
    if (!Number.isInteger(size) || size < 1 || size > PAGE_MAX)
      return problem(400, `the page size must be a whole number from 1 to ${PAGE_MAX}`, 22);
    const at = Number(url.searchParams.get(byPage ? 'page' : 'offset') ?? (byPage ? 1 : 0));
    if (!Number.isInteger(at) || at < (byPage ? 1 : 0))
      return problem(400, byPage ? 'page counts from 1' : 'offset counts from 0', 22);
    let start = byPage ? (at - 1) * size : at;
    const whole = slice(0, 0).total;
    if (start >= whole && whole > 0 && this.habits.pastLast === '404')
      return problem(404, 'invalid page', 31);
    if (start >= whole && whole > 0 && this.habits.pastLast === 'clamp')
      start = byPage ? Math.floor((whole - 1) / size) * size : Math.max(0, whole - size);
    const { items: results, total } = slice(start, size);
    return {
      status: 200,
      body: byPage
        ? { results, page: at, pages: Math.max(1, Math.ceil(total / size)) }
        : { results, offset: at, total },
    };
  }

  /** A list page by token: `?pageSize=5&pageToken=…`, answered `{ collections, nextPageToken }`. */
  tokenPage(caller: Caller, url: URL): Reply {
    const sizeText = url.searchParams.get('pageSize');
    const size = sizeText === null ? PAGE_DEFAULT : Number(sizeText);
    if (!Number.isInteger(size) || size < 1 || size > PAGE_MAX)
      return problem(400, `pageSize must be a whole number from 1 to ${PAGE_MAX}`, 22);
    const token = url.searchParams.get('pageToken');
    const after = token === null || token === '' ? undefined : readToken(token);
    if (token && !after) return problem(400, 'this page token is not ours', 22);
    const page = this.store.list(caller.account, size, after);
    return {
      status: 200,
      body: {
        collections: page.items.map((c) => this.summary(c, true, after !== undefined)),
        nextPageToken: page.next ?? '',
      },
    };
  }

  /**
   * A page of a collection's objects, newest first, paged as the list of collections is: by
   * next links (`?size=5`, `{ items, links }`), page numbers, offsets, or a page token (then
   * `{ objects, nextPageToken }`).
   */
  objectsPage(collection: CollectionRecord, url: URL): Reply {
    const { store } = this;
    const view = (o: ObjectRecord) => this.objectView(o);
    if (this.paging === 'pages' || this.paging === 'offset')
      return this.numberedPage(url, (start, size) => {
        const { items, total } = store.sliceObjects(collection, start, size);
        return { items: items.map(view), total };
      });
    const cursor = this.paging === 'cursor';
    const sizeText = url.searchParams.get(cursor ? 'pageSize' : 'size');
    const size = sizeText === null ? PAGE_DEFAULT : Number(sizeText);
    if (!Number.isInteger(size) || size < 1 || (cursor && size > PAGE_MAX))
      return problem(400, `the page size must be a whole number from 1 to ${PAGE_MAX}`, 22);
    const token = url.searchParams.get(cursor ? 'pageToken' : 'page');
    const below = token === null || token === '' ? undefined : readObjectToken(token);
    if (token && below === undefined) return problem(400, 'this page token is not ours', 22);
    const page = store.listObjects(collection, Math.min(size, PAGE_MAX), below);
    const next = page.next === undefined ? undefined : objectTokenOf(page.next);
    if (cursor)
      return { status: 200, body: { objects: page.items.map(view), nextPageToken: next ?? '' } };
    const path = `/api/answers/collections/${encodeURIComponent(collection.collectionId)}/objects`;
    const query = (extra: string) => `${path}?${extra}size=${size}`;
    const self = query(token === null ? '' : `page=${token}&`);
    return this.linkedPage(page.items.map(view), self, next ? query(`page=${next}&`) : undefined);
  }

  /**
   * A page of next links: in the body (`{ items, links: { self, next } }`), or, paging by
   * `link-header`, in an RFC 8288 `Link` header as GitHub gives it (`<…>; rel="next"`), the body
   * `{ items }` alone.
   */
  linkedPage(items: unknown[], self: string, next: string | undefined): Reply {
    if (this.paging !== 'link-header')
      return { status: 200, body: { items, links: { self, ...(next ? { next } : {}) } } };
    const links = [`<${self}>; rel="self"`, ...(next ? [`<${next}>; rel="next"`] : [])];
    return { status: 200, body: { items }, headers: { link: links.join(', ') } };
  }

  /** PATCH of a collection: a new title, metadata to merge in (see Store.updateCollection). */
  update(collection: CollectionRecord, body: unknown): Reply {
    if (!isPlainObject(body)) return problem(400, 'an update is an object', 24);
    const { title, meta } = body;
    if (title !== undefined && (typeof title !== 'string' || title.trim() === ''))
      return problem(400, '"title" must be text', 24);
    if (meta !== undefined && this.design.updateOps === 'split')
      return problem(
        400,
        'a PATCH changes the "title" only: replace metadata by PUT /api/answers/collections/{id}/metadata',
        24,
      );
    if (meta !== undefined && !isPlainObject(meta))
      return problem(400, '"meta" must be an object', 24);
    return this.writeMeta(collection, {
      ...(title === undefined ? {} : { title }),
      ...(meta === undefined ? {} : { meta }),
    });
  }

  operate(operation: string, caller: Caller, rawId: string, url: URL, body: unknown): Reply {
    const { store } = this;
    switch (operation) {
      case 'list': {
        if (this.paging === 'cursor') return this.tokenPage(caller, url);
        if (this.paging === 'pages' || this.paging === 'offset')
          return this.numberedPage(url, (start, size) => {
            const { items, total } = store.slice(caller.account, start, size);
            return { items: items.map((c) => this.summary(c, true, start > 0)), total };
          });
        const sizeText = url.searchParams.get('size');
        const size = sizeText === null ? PAGE_DEFAULT : Number(sizeText);
        if (!Number.isInteger(size) || size < 1)
          return problem(400, 'size must be a whole number from 1', 22);
        const token = url.searchParams.get('page');
        const after = token === null ? undefined : readToken(token);
        if (token !== null && !after) return problem(400, 'this page link is not ours', 22);
        const page = store.list(caller.account, Math.min(size, PAGE_MAX), after);
        // @note The foreign-next-link variant hands out absolute links to another host, as a
        // deployment behind a misconfigured proxy would (its public name, another environment).
        const origin = this.variant === 'foreign-next-link' ? (this.foreignOrigin ?? '') : '';
        const query = (extra: string) => `${origin}/v1/collections?${extra}size=${size}`;
        return this.linkedPage(
          page.items.map((c) => this.summary(c, true, token !== null)),
          query(token === null ? '' : `page=${token}&`),
          page.next ? query(`page=${page.next}&`) : undefined,
        );
      }
      case 'create': {
        if (!isPlainObject(body) || typeof body.title !== 'string' || body.title.trim() === '')
          return problem(400, 'a collection needs a "title" (text)', 24);
        if (body.meta !== undefined && !isPlainObject(body.meta))
          return problem(400, '"meta" must be an object', 24);
        const refused =
          this.design.fieldLimits === 'per-field' ? metadataRefusal(body.meta ?? {}) : undefined;
        if (refused) return problem(400, refused, 27);
        const made = store.createCollection(caller.account, body.title, body.meta ?? {});
        return { status: 201, body: { result: this.summary(made, false) } };
      }
      case 'get':
      case 'delete':
      case 'update':
      case 'meta':
      case 'objects':
      case 'add': {
        const found = store.findCollection(caller.account, rawId, operation === 'delete');
        if (found.state !== 'here') return this.missing(found);
        const collection = found.record;
        if (operation === 'get') {
          const shown =
            this.variant === 'get-ignores-id'
              ? (store.newestOf(caller.account) ?? collection)
              : collection;
          return { status: 200, body: { result: this.summary(shown, false) } };
        }
        if (operation === 'update') return this.update(collection, body);
        if (operation === 'meta') {
          if (!isPlainObject(body)) return problem(400, 'metadata is an object', 24);
          return this.writeMeta(collection, { meta: body }, 'replace');
        }
        if (operation === 'objects') return this.objectsPage(collection, url);
        if (operation === 'delete') {
          const removed = store.deleteCollection(collection);
          return {
            status: 200,
            body: { result: { collectionId: collection.collectionId, removedObjects: removed } },
          };
        }
        if (!isPlainObject(body) || !('body' in body))
          return problem(400, 'an object needs a "body" (any JSON)', 24);
        const refused = this.contentRefusal(body.body);
        if (refused) return refused;
        return { status: 201, body: this.objectView(store.createObject(collection, body.body)) };
      }
      case 'object':
      case 'replace':
      case 'patch':
      case 'remove': {
        const id = /^\d{1,15}$/.test(rawId) ? Number(rawId) : undefined;
        const found =
          id === undefined
            ? undefined
            : store.findObject(caller.account, id, operation !== 'object');
        if (!found) return NOT_FOUND;
        if (found.state !== 'here') return this.missing(found);
        if (operation === 'remove') {
          store.deleteObject(found.record);
          return { status: 200, body: { result: { objectId: found.record.objectId } } };
        }
        if (operation === 'replace' || operation === 'patch') {
          if (!isPlainObject(body) || !('body' in body))
            return problem(400, 'an object needs a "body" (any JSON)', 24);
          const refused = this.contentRefusal(body.body);
          if (refused) return refused;
          // @note PATCH merges what is sent into the body as the `update` design says (merge,
          // replace or RFC 7396), the same switch as for a collection's metadata.
          const changed =
            operation === 'patch'
              ? store.patchObject(found.record, body.body)
              : store.replaceObject(found.record, body.body);
          return { status: 200, body: this.objectView(changed) };
        }
        return { status: 200, body: this.objectView(found.record) };
      }
      default: {
        // @note Searched by `GET ?q=` (a `scope` parameter, given once per collection, narrows
        // it), or by a body: `{ q, scope }`, or `{ q }` with no scope at all (the `body` design).
        if (this.design.search === 'query') {
          const scopes = url.searchParams.getAll('scope');
          body = { q: url.searchParams.get('q'), ...(scopes.length ? { scope: scopes } : {}) };
        } else if (this.design.search === 'body' && isPlainObject(body)) {
          body = { q: body.q };
        }
        if (!isPlainObject(body) || typeof body.q !== 'string' || body.q.trim() === '')
          return problem(400, 'a query needs "q" (text)', 24);
        const scope = body.scope;
        if (
          scope !== undefined &&
          !(Array.isArray(scope) && scope.every((s) => typeof s === 'string'))
        )
          return problem(400, '"scope" must be a list of collection ids', 24);
        // @note Habits of real search services, none of them against a stated rule: a scope that
        // is read and ignored, and hits that mark the matched words and cut the text short.
        const scoped = this.habits.scopeIgnored ? undefined : (scope as string[] | undefined);
        const q = body.q;
        const hits = store.search(caller.account, q, scoped);
        // @note A hit of the `content` design holds the id and content alone; of `object` (and
        // unset) the whole object as a get shows it.
        const shown = (record: ObjectRecord) =>
          this.design.hits === 'content'
            ? { objectId: record.objectId, body: record.body }
            : this.objectView(record);
        const item = (record: ObjectRecord) =>
          this.habits.highlight ? highlighted(shown(record), q) : shown(record);
        return {
          status: 200,
          body: {
            hits: {
              total: hits.length,
              list: hits
                .slice(0, PAGE_MAX)
                .map(({ record, rank }) => ({ rank, item: item(record) })),
            },
          },
        };
      }
    }
  }
}

function write(response: ServerResponse, reply: Reply): void {
  const text = reply.body === undefined ? '' : JSON.stringify(reply.body);
  response.writeHead(reply.status, {
    ...(text ? { 'content-type': 'application/json; charset=utf-8' } : {}),
    'cache-control': 'no-store',
    ...reply.headers,
  });
  response.end(text);
}

/**
 * Seeds each account with data of its own, made over the past days as a deployment's would be:
 * account A seven collections (one empty, the counts in no order), B two. Names share words with
 * their objects' text, as real data does: a read-only run finds objects by searching for them.
 */
function seed(store: Store): void {
  const day = 86_400_000;
  const start = Date.now() - 30 * day;
  let at = start;
  const collection = (account: string, title: string, meta: object, texts: string[]) => {
    at += day;
    const made = store.createCollection(account, title, meta as Record<string, unknown>, at);
    for (const text of texts) store.createObject(made, { text }, (at += 60_000));
  };
  collection('A', 'Welcome notes', { seeded: true }, [
    'Welcome notes: hello from the independent server',
  ]);
  collection('A', 'Garden journal', { season: 'spring' }, [
    'Garden journal: tomatoes planted by the fence',
    'Garden journal: roses pruned',
    'Garden journal: compost turned',
  ]);
  collection('A', 'Recipes archive', { shelf: 'kitchen' }, []);
  collection('A', 'Travel plans', { year: 2026 }, [
    'Travel plans for Lisbon in May',
    'Travel plans for Kyoto in autumn',
  ]);
  collection('A', 'Reading list', {}, ['Reading list: Middlemarch, then Bleak House']);
  collection('A', 'Meeting minutes', { team: 'core' }, [
    'Meeting minutes of Monday: budget agreed',
    'Meeting minutes of Tuesday: release planned',
    'Meeting minutes of Thursday: hiring',
    'Meeting minutes of Friday: retrospective',
  ]);
  collection('A', 'Project ideas', { owner: 'A' }, [
    'Project ideas: a birdhouse',
    'Project ideas: a bookshelf',
  ]);
  collection('B', 'Notes of account B', { owner: 'B' }, ['Notes only account B may read']);
  collection('B', 'Budget sheets', { owner: 'B' }, [
    'Budget sheets for March: rent and heating',
    'Budget sheets for April: holidays',
  ]);
}

/**
 * Starts the independent server on 127.0.0.1. Keys default to fresh random ones; `keys` can fix
 * any of them.
 */
export async function startIndependentServer(
  options: {
    variant?: VariantName | undefined;
    port?: number;
    keys?: Partial<IndependentKeys>;
    paging?: Paging;
    /** Where the `foreign-next-link` variant points its next links. */
    foreignOrigin?: string | undefined;
    /** A new object is found by search only after this many more searches (see Store). */
    indexLag?: number;
    /** Every nth request is answered 429 with `Retry-After: 0`, as a busy deployment does. */
    busyEvery?: number;
    /** Where to record the method and path of every request, for tests that judge the traffic. */
    log?: Array<{ method: string; path: string }>;
    habits?: Habits;
    /** The open decisions, each made one correct way (see Design). */
    design?: Design;
  } = {},
): Promise<IndependentServer> {
  const fresh = (role: string) => `indep_${role}_${randomBytes(9).toString('base64url')}`;
  const keys: IndependentKeys = {
    full: options.keys?.full ?? fresh('a_full'),
    readonly: options.keys?.readonly ?? fresh('a_read'),
    inactive: options.keys?.inactive ?? fresh('a_off'),
    otherAccount: options.keys?.otherAccount ?? fresh('b_full'),
  };
  const records = new Map<string, KeyRecord>([
    [keys.full, { account: 'A', canWrite: true, active: true }],
    [keys.readonly, { account: 'A', canWrite: false, active: true }],
    [keys.inactive, { account: 'A', canWrite: true, active: false }],
    [keys.otherAccount, { account: 'B', canWrite: true, active: true }],
  ]);
  const app = new IndependentApp(
    options.variant,
    records,
    'A',
    options.paging,
    options.foreignOrigin,
    options.habits,
    options.design,
  );
  seed(app.store);
  app.store.indexLag = options.indexLag ?? 0;
  let requests = 0;
  const server = createServer((request, response) => {
    options.log?.push({
      method: request.method ?? '',
      path: new URL(request.url ?? '/', 'http://independent.invalid').pathname,
    });
    if (options.busyEvery && ++requests % options.busyEvery === 0) {
      write(response, problem(429, 'too many requests: try again', 29, { 'retry-after': '0' }));
      request.resume();
      return;
    }
    app.handle(request).then(
      (reply) => write(response, reply),
      () => write(response, problem(500, 'the server failed', 50)),
    );
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    keys,
    empty: () => {
      app.store = app.newStore();
      app.store.indexLag = options.indexLag ?? 0;
    },
    heldObjects: () => app.store.heldObjects,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
