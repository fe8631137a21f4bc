/**
 * An Answers server written from the interface document alone
 * (../shared/spec/answers-service-spec.md), on node:http only.
 *
 * Every choice made where the document is silent is written down in DESIGN.md
 * beside this file. Seeded flaws (all off by default) are listed in flaws.ts.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { FLAWS, type FlawName } from './flaws.ts';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

interface AccountKeys {
  /** reads and writes */
  full: string;
  /** reads only; every write is answered 401 */
  readOnly: string;
  /** deactivated; every request is answered 401 */
  inactive: string;
}

interface SpecOnlyKeys {
  alpha: AccountKeys;
  beta: AccountKeys;
}

export interface SpecOnlyServer {
  /** base address, e.g. http://127.0.0.1:40123 (no trailing slash) */
  url: string;
  keys: SpecOnlyKeys;
  close(): Promise<void>;
}

export interface SpecOnlyOptions {
  flaws?: FlawName[];
  port?: number;
}

/* ------------------------------------------------------------------------ */
/* Limits and windows (documented in DESIGN.md)                              */
/* ------------------------------------------------------------------------ */

export const LIMITS = {
  /** whole request body, bytes → 413 */
  bodyBytes: 65_536,
  /** object content, bytes of compact JSON (UTF-8) → 413 */
  contentBytes: 16_384,
  /** collection metadata, bytes of compact JSON (UTF-8) → 422 */
  metadataBytes: 1_024,
  /** containers nested, the top-level object counting as level 1 → 422 */
  depth: 4,
  /** collection name, Unicode code points → 422 */
  nameChars: 64,
  /** search query, Unicode code points → 400 */
  queryChars: 256,
  /** page size: default and maximum → 400 above */
  pageDefault: 10,
  pageMax: 25,
} as const;

export const WINDOWS = {
  /** objects of a deleted collection are erased this long after the delete (timer) */
  cascadeMs: 200,
  /** documented bound for the cascade: object gets answer 410 after this */
  cascadeBoundMs: 300,
  /** the search index is refreshed this long after the first pending write */
  searchRefreshMs: 150,
  /** documented bound for search lag */
  searchBoundMs: 250,
} as const;

const LIST_PATH = '/v1/collections';
const BASE = '/api/answers';

/* ------------------------------------------------------------------------ */
/* Errors                                                                    */
/* ------------------------------------------------------------------------ */

class Fault extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

const unauthenticated = (message: string): Fault =>
  new Fault(401, 'unauthenticated', message, { 'WWW-Authenticate': 'Bearer realm="answers"' });

/* ------------------------------------------------------------------------ */
/* Records                                                                   */
/* ------------------------------------------------------------------------ */

interface KeyRecord {
  account: 'alpha' | 'beta';
  write: boolean;
  active: boolean;
}

interface CollectionRecord {
  id: string;
  account: string;
  name: string;
  metadata: JsonObject;
  objectCount: number;
  seq: number;
  created: number;
  updated: number;
  /** per-collection object counter (used only by the object-ids-per-collection flaw) */
  localObjects: number;
}

interface ObjectRecord {
  id: string;
  collectionId: string;
  account: string;
  content: JsonObject;
  seq: number;
  created: number | undefined;
  updated: number;
  rev: number;
}

interface IndexEntry {
  account: string;
  collectionId: string;
  seq: number;
  snapshot: JsonObject;
  tokens: string[];
}

const objectKey = (collectionId: string, objectId: string): string => `${collectionId}/${objectId}`;

/* ------------------------------------------------------------------------ */
/* Helpers                                                                   */
/* ------------------------------------------------------------------------ */

const isObject = (v: unknown): v is JsonObject =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

function depthOf(v: Json): number {
  if (Array.isArray(v)) return 1 + v.reduce<number>((m, x) => Math.max(m, depthOf(x)), 0);
  if (isObject(v)) return 1 + Object.values(v).reduce<number>((m, x) => Math.max(m, depthOf(x)), 0);
  return 0;
}

const jsonBytes = (v: Json): number => Buffer.byteLength(JSON.stringify(v), 'utf8');

function tokenize(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((t) => t.length > 0);
}

function stringsOf(v: Json, out: string[]): string[] {
  if (typeof v === 'string') out.push(v);
  else if (Array.isArray(v)) v.forEach((x) => stringsOf(x, out));
  else if (isObject(v)) Object.values(v).forEach((x) => stringsOf(x, out));
  return out;
}

const pad = (n: number, width: number): string => String(n).padStart(width, '0');

function encodeCursor(kind: string, n: number): string {
  return Buffer.from(`${kind}:${n}`, 'utf8').toString('base64url');
}

function decodeCursor(kind: string, raw: string | null): number | undefined {
  if (raw === null) return undefined;
  const text = /^[A-Za-z0-9_-]+$/.test(raw) ? Buffer.from(raw, 'base64url').toString('utf8') : '';
  const prefix = `${kind}:`;
  const rest = text.startsWith(prefix) ? text.slice(prefix.length) : '';
  if (!/^(0|[1-9][0-9]{0,14})$/.test(rest))
    throw new Fault(400, 'invalid_cursor', 'The cursor is not one this list handed out.');
  return Number(rest);
}

function pageSize(params: URLSearchParams): number {
  const raw = params.get('per_page');
  if (raw === null) return LIMITS.pageDefault;
  if (!/^[0-9]{1,6}$/.test(raw) || Number(raw) < 1) {
    throw new Fault(
      400,
      'invalid_page_size',
      `per_page must be an integer from 1 to ${LIMITS.pageMax}.`,
    );
  }
  if (Number(raw) > LIMITS.pageMax) {
    throw new Fault(400, 'page_size_too_large', `per_page is at most ${LIMITS.pageMax}.`);
  }
  return Number(raw);
}

/* ------------------------------------------------------------------------ */
/* The server                                                                */
/* ------------------------------------------------------------------------ */

export async function startSpecOnlyServer(options: SpecOnlyOptions = {}): Promise<SpecOnlyServer> {
  const flaws = new Set<FlawName>(options.flaws ?? []);
  for (const f of flaws) if (!(f in FLAWS)) throw new Error(`unknown flaw: ${String(f)}`);
  const flaw = (name: FlawName): boolean => flaws.has(name);

  const keys: SpecOnlyKeys = {
    alpha: {
      full: 'ans_alpha_rw_0a1b2c3d',
      readOnly: 'ans_alpha_ro_4e5f6a7b',
      inactive: 'ans_alpha_off_8c9d0e1f',
    },
    beta: {
      full: 'ans_beta_rw_1f2e3d4c',
      readOnly: 'ans_beta_ro_5b6a7f8e',
      inactive: 'ans_beta_off_9d0c1b2a',
    },
  };
  const keyTable = new Map<string, KeyRecord>();
  for (const account of ['alpha', 'beta'] as const) {
    keyTable.set(keys[account].full, { account, write: true, active: true });
    keyTable.set(keys[account].readOnly, { account, write: false, active: true });
    keyTable.set(keys[account].inactive, { account, write: true, active: false });
  }

  /* The clock this server owns: a logical clock starting at 2026-01-01T00:00:00Z
     that moves one second forward at every write, whatever the wall clock does. */
  const epoch = Date.UTC(2026, 0, 1, 0, 0, 0);
  let ticks = 0;
  const stamp = (): number => epoch + ++ticks * 1000;
  const formatTime = (ms: number): string => `${new Date(ms).toISOString().slice(0, 19)}+00:00`;

  let collectionCounter = 0;
  let objectCounter = 0;
  let seqCounter = 0;

  const collections = new Map<string, CollectionRecord>();
  /** deleted collection id → owning account (tombstones, for 410) */
  const goneCollections = new Map<string, { account: string; name: string }>();
  /** key (collection/object) → live object */
  const objects = new Map<string, ObjectRecord>();
  /** key → owning account of a deleted object (tombstones, for 410) */
  const goneObjects = new Map<string, string>();
  /** search index: snapshots refreshed a short while after writes */
  const index = new Map<string, IndexEntry>();
  /** delete-undone-by-same-name flaw: objects parked by account+name */
  const parked = new Map<string, ObjectRecord[]>();

  const timers = new Set<NodeJS.Timeout>();
  const later = (ms: number, fn: () => void): void => {
    const t = setTimeout(() => {
      timers.delete(t);
      fn();
    }, ms);
    t.unref();
    timers.add(t);
  };

  /* ---------------- representations ---------------- */

  function collectionView(c: CollectionRecord, inList = false): JsonObject {
    const view: JsonObject = { id: c.id, name: c.name, metadata: structuredClone(c.metadata) };
    if (inList && flaw('list-omits-empty-metadata') && Object.keys(c.metadata).length === 0)
      delete view.metadata;
    view.objectCount = c.objectCount;
    view.createdAt = formatTime(c.created);
    view.updatedAt = formatTime(c.updated);
    return view;
  }

  function objectView(o: ObjectRecord): JsonObject {
    const view: JsonObject = { _id: o.id, _collection: o.collectionId };
    if (o.created !== undefined) view._created = formatTime(o.created);
    view._updated = formatTime(o.updated);
    view._rev = o.rev;
    return { ...view, ...structuredClone(o.content) };
  }

  /* ---------------- search index ---------------- */

  let refreshPending = false;
  function scheduleRefresh(): void {
    if (refreshPending) return;
    refreshPending = true;
    later(WINDOWS.searchRefreshMs, () => {
      refreshPending = false;
      refreshIndex();
    });
  }

  function refreshIndex(): void {
    for (const [key, o] of objects) {
      if (flaw('search-stale-after-update') && index.has(key)) continue;
      index.set(key, {
        account: o.account,
        collectionId: o.collectionId,
        seq: o.seq,
        snapshot: objectView(o),
        tokens: tokenize(stringsOf(o.content, []).join(' ')),
      });
    }
    for (const [key, entry] of index) {
      if (objects.has(key)) continue;
      if (flaw('search-shows-deleted-collection') && !collections.has(entry.collectionId)) continue;
      index.delete(key);
    }
  }

  /* ---------------- cascade ---------------- */

  function cascade(collectionId: string, account: string, name: string): void {
    for (const [key, o] of objects) {
      if (o.collectionId !== collectionId) continue;
      objects.delete(key);
      if (flaw('delete-undone-by-same-name')) {
        const slot = `${account}\u0000${name}`;
        parked.set(slot, [...(parked.get(slot) ?? []), o]);
      } else {
        goneObjects.set(key, account);
      }
    }
    scheduleRefresh();
  }

  /* ---------------- authentication ---------------- */

  function authenticate(req: http.IncomingMessage, path: string): KeyRecord | undefined {
    const xKey = req.headers['x-answers-api-key'];
    const authorization = req.headers.authorization;
    if (xKey !== undefined) {
      const value = Array.isArray(xKey) ? undefined : xKey.trim();
      if (value === undefined || value === '')
        throw unauthenticated('The X-Answers-API-Key header is empty or repeated.');
      const rec = keyTable.get(value);
      if (!rec) throw unauthenticated('The API key is not valid.');
      if (!rec.active && !flaw('inactive-key-x-header'))
        throw unauthenticated('The API key is inactive.');
      return rec;
    }
    if (authorization !== undefined) {
      const match = /^Bearer +([^\s]+) *$/i.exec(authorization);
      let value = match?.[1];
      if (
        value === undefined &&
        flaw('bearer-prefix-optional') &&
        keyTable.has(authorization.trim())
      ) {
        value = authorization.trim();
      }
      if (value === undefined)
        throw unauthenticated('The Authorization header must be of the form "Bearer <API_KEY>".');
      const rec = keyTable.get(value);
      if (!rec) throw unauthenticated('The API key is not valid.');
      if (!rec.active) throw unauthenticated('The API key is inactive.');
      return rec;
    }
    if (flaw('search-unauthenticated') && path === `${BASE}/search`) return undefined;
    throw unauthenticated('An API key is required (X-Answers-API-Key, or Authorization: Bearer).');
  }

  /* ---------------- collection resolution ---------------- */

  function ownCollection(account: string, id: string, allowOther = false): CollectionRecord {
    const c = collections.get(id);
    if (c && (c.account === account || allowOther)) return c;
    if (!c && goneCollections.get(id)?.account === account) {
      throw new Fault(410, 'collection_deleted', `Collection ${id} was deleted.`);
    }
    throw new Fault(404, 'collection_not_found', `No collection ${id}.`);
  }

  /* ---------------- validation ---------------- */

  function validName(v: unknown): string {
    if (typeof v !== 'string') throw new Fault(422, 'invalid_name', 'name must be a string.');
    if (v.trim() === '') throw new Fault(422, 'invalid_name', 'name must not be blank.');
    if ([...v].length > LIMITS.nameChars) {
      throw new Fault(422, 'name_too_long', `name is at most ${LIMITS.nameChars} characters.`);
    }
    return v;
  }

  function validMetadata(v: unknown): JsonObject {
    if (!isObject(v)) throw new Fault(422, 'invalid_metadata', 'metadata must be a JSON object.');
    if (depthOf(v) > LIMITS.depth) {
      throw new Fault(422, 'too_deep', `metadata is nested at most ${LIMITS.depth} levels.`);
    }
    if (jsonBytes(v) > LIMITS.metadataBytes) {
      throw new Fault(
        422,
        'metadata_too_large',
        `metadata is at most ${LIMITS.metadataBytes} bytes as JSON.`,
      );
    }
    return v;
  }

  function validContent(v: unknown): JsonObject {
    if (!isObject(v))
      throw new Fault(422, 'invalid_content', "An object's content must be a JSON object.");
    const reserved = Object.keys(v).find((k) => k.startsWith('_'));
    if (reserved !== undefined) {
      throw new Fault(
        422,
        'reserved_field',
        `Field names starting with "_" are reserved for system fields (${reserved}).`,
      );
    }
    if (depthOf(v) > LIMITS.depth) {
      throw new Fault(422, 'too_deep', `content is nested at most ${LIMITS.depth} levels.`);
    }
    if (jsonBytes(v) > LIMITS.contentBytes) {
      throw new Fault(
        413,
        'content_too_large',
        `content is at most ${LIMITS.contentBytes} bytes as JSON.`,
      );
    }
    return v;
  }

  /* ---------------- paging ---------------- */

  function pageOf<T>(
    sorted: T[],
    keyOf: (item: T) => number,
    after: number | undefined,
    size: number,
  ): { items: T[]; nextAfter: number | undefined } {
    const rest = after === undefined ? sorted : sorted.filter((t) => keyOf(t) > after);
    const items = rest.slice(0, size);
    const more = flaw('last-page-dropped') ? rest.length > size + 1 : rest.length > size;
    const last = items[items.length - 1];
    return { items, nextAfter: more && last !== undefined ? keyOf(last) : undefined };
  }

  function linkHeader(req: http.IncomingMessage, url: URL, cursor: string, size: number): string {
    const next = new URLSearchParams(url.searchParams);
    next.set('per_page', String(size));
    next.set('cursor', cursor);
    const host = req.headers.host ?? `127.0.0.1`;
    return `<http://${host}${url.pathname}?${next.toString()}>; rel="next"`;
  }

  /* ---------------- handlers ---------------- */

  type Reply = { status: number; body?: Json; headers?: Record<string, string> };

  function listCollections(req: http.IncomingMessage, url: URL, account: string): Reply {
    const size = pageSize(url.searchParams);
    const after = decodeCursor('c', url.searchParams.get('cursor'));
    const byUpdate = flaw('list-sorted-by-update');
    const mine = [...collections.values()]
      .filter((c) => flaw('list-leaks-other-account') || c.account === account)
      .sort((a, b) => (byUpdate ? a.updated - b.updated : a.seq - b.seq));
    const { items, nextAfter } = pageOf(mine, (c) => (byUpdate ? c.updated : c.seq), after, size);
    const headers: Record<string, string> = {};
    if (nextAfter !== undefined)
      headers.Link = linkHeader(req, url, encodeCursor('c', nextAfter), size);
    return { status: 200, body: items.map((c) => collectionView(c, true)), headers };
  }

  function createCollection(body: unknown, account: string): Reply {
    if (!isObject(body))
      throw new Fault(422, 'invalid_body', 'The body must be a JSON object { name, metadata? }.');
    const extra = Object.keys(body).filter((k) => k !== 'name' && k !== 'metadata');
    if (extra.length > 0)
      throw new Fault(422, 'unknown_field', `Unknown field(s): ${extra.join(', ')}.`);
    const name = validName(body.name);
    const metadata = body.metadata === undefined ? {} : validMetadata(body.metadata);
    const now = stamp();
    const c: CollectionRecord = {
      id: `col_${pad(++collectionCounter, 4)}`,
      account,
      name,
      metadata: structuredClone(metadata),
      objectCount: 0,
      seq: ++seqCounter,
      created: now,
      updated: now,
      localObjects: 0,
    };
    collections.set(c.id, c);
    if (flaw('delete-undone-by-same-name')) {
      const slot = `${account}\u0000${name}`;
      for (const o of parked.get(slot) ?? []) {
        o.collectionId = c.id;
        objects.set(objectKey(c.id, o.id), o);
        c.objectCount++;
      }
      parked.delete(slot);
      scheduleRefresh();
    }
    return {
      status: 201,
      body: collectionView(c),
      headers: { Location: `${BASE}/collections/${c.id}` },
    };
  }

  function renameCollection(c: CollectionRecord, body: unknown): Reply {
    if (!isObject(body))
      throw new Fault(422, 'invalid_body', 'The body must be a JSON object { name }.');
    const extra = Object.keys(body).filter((k) => k !== 'name');
    if (extra.length > 0) {
      throw new Fault(
        422,
        'unknown_field',
        `Only name can be changed here (metadata: PUT …/metadata). Unknown: ${extra.join(', ')}.`,
      );
    }
    if (!('name' in body)) throw new Fault(422, 'invalid_name', 'name is required.');
    c.name = validName(body.name);
    c.updated = stamp();
    return { status: 200, body: collectionView(c) };
  }

  function replaceMetadata(c: CollectionRecord, body: unknown): Reply {
    const metadata = validMetadata(body);
    c.metadata = structuredClone(metadata);
    c.updated = stamp();
    return { status: 200, body: structuredClone(c.metadata) };
  }

  function deleteCollection(c: CollectionRecord): Reply {
    collections.delete(c.id);
    goneCollections.set(c.id, { account: c.account, name: c.name });
    if (!flaw('cascade-never-finishes')) {
      const { id, account, name } = c;
      later(WINDOWS.cascadeMs, () => cascade(id, account, name));
    }
    return { status: 204 };
  }

  function createObject(c: CollectionRecord, body: unknown): Reply {
    const content = validContent(body);
    const now = stamp();
    c.localObjects++;
    const id = flaw('object-ids-per-collection')
      ? `obj_${pad(c.localObjects, 6)}`
      : `obj_${pad(++objectCounter, 6)}`;
    const o: ObjectRecord = {
      id,
      collectionId: c.id,
      account: c.account,
      content: structuredClone(content),
      seq: ++seqCounter,
      created: now,
      updated: now,
      rev: 1,
    };
    objects.set(objectKey(c.id, id), o);
    c.objectCount++;
    scheduleRefresh();
    return {
      status: 201,
      body: objectView(o),
      headers: { Location: `${BASE}/collections/${c.id}/objects/${id}` },
    };
  }

  function listObjects(req: http.IncomingMessage, url: URL, c: CollectionRecord): Reply {
    const size = pageSize(url.searchParams);
    const after = decodeCursor(`o/${c.id}`, url.searchParams.get('cursor'));
    const mine = [...objects.values()]
      .filter((o) => o.collectionId === c.id)
      .sort((a, b) => a.seq - b.seq);
    const { items, nextAfter } = pageOf(mine, (o) => o.seq, after, size);
    const headers: Record<string, string> = {};
    if (nextAfter !== undefined)
      headers.Link = linkHeader(req, url, encodeCursor(`o/${c.id}`, nextAfter), size);
    return { status: 200, body: items.map(objectView), headers };
  }

  /** Reads see an object of a deleted collection until the cascade erases it; writes never do. */
  function findObject(
    account: string,
    collectionId: string,
    objectId: string,
    forWrite = false,
  ): ObjectRecord {
    const key = objectKey(collectionId, objectId);
    const o = objects.get(key);
    if (o && o.account === account) {
      if (forWrite && !collections.has(collectionId)) {
        throw new Fault(410, 'collection_deleted', `Collection ${collectionId} was deleted.`);
      }
      return o;
    }
    if (!o && goneObjects.get(key) === account)
      throw new Fault(410, 'object_deleted', `Object ${objectId} was deleted.`);
    if (!o && goneCollections.get(collectionId)?.account === account) {
      throw new Fault(410, 'collection_deleted', `Collection ${collectionId} was deleted.`);
    }
    throw new Fault(
      404,
      'object_not_found',
      `No object ${objectId} in collection ${collectionId}.`,
    );
  }

  function getObject(o: ObjectRecord): Reply {
    if (flaw('object-get-drops-system-fields'))
      return { status: 200, body: { _id: o.id, ...structuredClone(o.content) } };
    return { status: 200, body: objectView(o) };
  }

  function replaceObject(o: ObjectRecord, body: unknown): Reply {
    const content = validContent(body);
    o.content = structuredClone(content);
    o.updated = stamp();
    o.rev++;
    if (flaw('system-fields-lost-on-update')) o.created = undefined;
    scheduleRefresh();
    return { status: 200, body: objectView(o) };
  }

  function deleteObject(o: ObjectRecord): Reply {
    const key = objectKey(o.collectionId, o.id);
    objects.delete(key);
    goneObjects.set(key, o.account);
    const c = collections.get(o.collectionId);
    if (c && !flaw('count-stale-after-object-delete')) c.objectCount--;
    scheduleRefresh();
    return { status: 204 };
  }

  function search(req: http.IncomingMessage, url: URL, account: string | undefined): Reply {
    const q = url.searchParams.get('q');
    if (q === null || q.trim() === '')
      throw new Fault(400, 'query_required', 'q (the search text) is required.');
    if ([...q].length > LIMITS.queryChars) {
      throw new Fault(400, 'query_too_long', `q is at most ${LIMITS.queryChars} characters.`);
    }
    const terms = [...new Set(tokenize(q))];
    if (terms.length === 0) throw new Fault(400, 'query_required', 'q holds no searchable word.');
    const size = pageSize(url.searchParams);
    const after = decodeCursor('s', url.searchParams.get('cursor'));
    const scope = url.searchParams.getAll('collection');
    if (account !== undefined) for (const id of scope) ownCollection(account, id);

    const hits: { score: number; seq: number; object: JsonObject }[] = [];
    for (const entry of index.values()) {
      if (account !== undefined && entry.account !== account) continue;
      if (!flaw('search-shows-deleted-collection') && !collections.has(entry.collectionId))
        continue;
      if (scope.length > 0 && !scope.includes(entry.collectionId)) continue;
      let score = 0;
      for (const term of terms) {
        const tf = entry.tokens.filter((t) => t === term).length;
        if (tf > 0) score += 1 + Math.log(tf);
      }
      if (score > 0)
        hits.push({
          score: Math.round(score * 10_000) / 10_000,
          seq: entry.seq,
          object: flaw('hit-object-drops-system-fields')
            ? Object.fromEntries(
                Object.entries(structuredClone(entry.snapshot)).filter(
                  ([name]) => name === '_id' || !name.startsWith('_'),
                ),
              )
            : structuredClone(entry.snapshot),
        });
    }
    hits.sort((a, b) => b.score - a.score || a.seq - b.seq);
    const positioned = hits.map((h, i) => ({ ...h, pos: i }));
    const { items, nextAfter } = pageOf(positioned, (h) => h.pos, after, size);
    const headers: Record<string, string> = {};
    if (nextAfter !== undefined)
      headers.Link = linkHeader(req, url, encodeCursor('s', nextAfter), size);
    return { status: 200, body: items.map((h) => ({ score: h.score, object: h.object })), headers };
  }

  /* ---------------- routing ---------------- */

  const WRITE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

  async function readBody(req: http.IncomingMessage): Promise<unknown> {
    const type = req.headers['content-type'];
    if (type !== undefined) {
      const media = type.split(';')[0]!.trim().toLowerCase();
      if (media !== 'application/json' && !/^application\/[a-z0-9.+-]*\+json$/.test(media)) {
        throw new Fault(
          415,
          'unsupported_media_type',
          'Bodies are JSON (Content-Type: application/json).',
        );
      }
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    for await (const chunk of req as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > LIMITS.bodyBytes) tooLarge = true;
      else chunks.push(chunk);
    }
    if (tooLarge)
      throw new Fault(
        413,
        'body_too_large',
        `A request body is at most ${LIMITS.bodyBytes} bytes.`,
      );
    const text = Buffer.concat(chunks).toString('utf8');
    if (text.trim() === '') throw new Fault(400, 'body_required', 'A JSON body is required.');
    try {
      return JSON.parse(text) as unknown;
    } catch {
      throw new Fault(400, 'invalid_json', 'The body is not valid JSON.');
    }
  }

  function methodNotAllowed(allow: string[]): never {
    throw new Fault(405, 'method_not_allowed', `Allowed: ${allow.join(', ')}.`, {
      Allow: allow.join(', '),
    });
  }

  async function route(req: http.IncomingMessage, url: URL): Promise<Reply> {
    const method = req.method ?? 'GET';
    const path = url.pathname;
    const caller = authenticate(req, path);

    const segments = path.startsWith(`${BASE}/`)
      ? path
          .slice(BASE.length + 1)
          .split('/')
          .map(decodeURIComponent)
      : [];
    type Match = { allow: string[]; run: () => Promise<Reply> | Reply };
    let match: Match | undefined;

    const me = caller?.account ?? '';
    if (path === LIST_PATH) {
      match = { allow: ['GET'], run: () => listCollections(req, url, me) };
    } else if (segments.length === 1 && segments[0] === 'search') {
      match = { allow: ['GET'], run: () => search(req, url, caller?.account) };
    } else if (segments[0] === 'collections' && segments.length === 1) {
      match = { allow: ['POST'], run: async () => createCollection(await readBody(req), me) };
    } else if (segments[0] === 'collections' && segments.length === 2 && segments[1]) {
      const cid = segments[1];
      const handlers: Record<string, () => Promise<Reply> | Reply> = {
        GET: () => ({
          status: 200,
          body: collectionView(ownCollection(me, cid, flaw('other-account-get-allowed'))),
        }),
        PATCH: async () => {
          const c = ownCollection(me, cid);
          return renameCollection(c, await readBody(req));
        },
        DELETE: () => deleteCollection(ownCollection(me, cid)),
      };
      const run = handlers[method];
      match = {
        allow: Object.keys(handlers),
        run: run ?? (() => methodNotAllowed(Object.keys(handlers))),
      };
    } else if (
      segments[0] === 'collections' &&
      segments.length === 3 &&
      segments[1] &&
      segments[2] === 'metadata'
    ) {
      const cid = segments[1];
      const handlers: Record<string, () => Promise<Reply> | Reply> = {
        GET: () => ({ status: 200, body: structuredClone(ownCollection(me, cid).metadata) }),
        PUT: async () => {
          const c = ownCollection(me, cid);
          return replaceMetadata(c, await readBody(req));
        },
      };
      match = {
        allow: Object.keys(handlers),
        run: handlers[method] ?? (() => methodNotAllowed(Object.keys(handlers))),
      };
    } else if (
      segments[0] === 'collections' &&
      segments.length === 3 &&
      segments[1] &&
      segments[2] === 'objects'
    ) {
      const cid = segments[1];
      const handlers: Record<string, () => Promise<Reply> | Reply> = {
        GET: () => listObjects(req, url, ownCollection(me, cid)),
        POST: async () => {
          const c = ownCollection(me, cid);
          return createObject(c, await readBody(req));
        },
      };
      match = {
        allow: Object.keys(handlers),
        run: handlers[method] ?? (() => methodNotAllowed(Object.keys(handlers))),
      };
    } else if (
      segments[0] === 'collections' &&
      segments.length === 4 &&
      segments[1] &&
      segments[2] === 'objects' &&
      segments[3]
    ) {
      const cid = segments[1];
      const oid = segments[3];
      const handlers: Record<string, () => Promise<Reply> | Reply> = {
        GET: () => getObject(findObject(me, cid, oid)),
        PUT: async () => {
          const o = findObject(me, cid, oid, true);
          return replaceObject(o, await readBody(req));
        },
        DELETE: () => deleteObject(findObject(me, cid, oid, true)),
      };
      match = {
        allow: Object.keys(handlers),
        run: handlers[method] ?? (() => methodNotAllowed(Object.keys(handlers))),
      };
    }

    if (!match) throw new Fault(404, 'no_such_route', `No route ${path}.`);
    if (!match.allow.includes(method)) methodNotAllowed(match.allow);
    if (WRITE.has(method) && caller && !caller.write) {
      const exempt =
        flaw('readonly-can-put-metadata') && method === 'PUT' && segments[2] === 'metadata';
      if (!exempt)
        throw unauthenticated(
          'This API key is read-only; it has no permission for this operation.',
        );
    }
    return match.run();
  }

  function send(res: http.ServerResponse, reply: Reply): void {
    if (!res.req.complete) res.req.resume();
    const headers: Record<string, string> = {
      'Cache-Control': 'no-store',
      ...(reply.headers ?? {}),
    };
    if (reply.body === undefined) {
      res.writeHead(reply.status, headers);
      res.end();
      return;
    }
    const text = JSON.stringify(reply.body);
    headers['Content-Type'] = 'application/json; charset=utf-8';
    headers['Content-Length'] = String(Buffer.byteLength(text));
    res.writeHead(reply.status, headers);
    res.end(text);
  }

  const server = http.createServer((req, res) => {
    let url: URL;
    try {
      url = new URL(req.url ?? '/', 'http://127.0.0.1');
    } catch {
      send(res, {
        status: 400,
        body: { fault: { status: 400, code: 'bad_request', message: 'Bad request target.' } },
      });
      return;
    }
    route(req, url).then(
      (reply) => send(res, reply),
      (err: unknown) => {
        const fault =
          err instanceof Fault
            ? err
            : err instanceof URIError
              ? new Fault(400, 'bad_request', 'Malformed percent-encoding in the path.')
              : new Fault(500, 'internal', 'Internal error.');
        send(res, {
          status: fault.status,
          headers: fault.headers,
          body: { fault: { status: fault.status, code: fault.code, message: fault.message } },
        });
      },
    );
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    keys,
    close: async () => {
      for (const t of timers) clearTimeout(t);
      timers.clear();
      server.closeAllConnections();
      await new Promise<void>((resolve, reject) =>
        server.close((e) => (e ? reject(e) : resolve())),
      );
    },
  };
}
