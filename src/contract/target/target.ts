import type { ContractClient, ContractResponse } from '../client.ts';
import { CheckFailure, CheckSkipped } from '../failure.ts';
import { instantOf } from './dates.ts';
import type { OperationName, TargetDescription } from './description.ts';
import { resolvePointer } from './pointer.ts';

/** The values a run puts into body templates. */
export interface BodyValues {
  name?: string;
  metadata?: Record<string, unknown>;
  content?: unknown;
  query?: string;
  collection_ids?: string[];
}

/** The operationId of our openapi.yaml for each operation, for the profile's response validation. */
const PROFILE_OPERATION: Record<OperationName, string> = {
  listCollections: 'listCollections',
  getCollection: 'getCollection',
  deleteCollection: 'deleteCollection',
  getObject: 'getObject',
  search: 'searchObjects',
  createCollection: 'createCollection',
  createObject: 'createObject',
  listObjects: 'listObjects',
  updateCollection: 'updateCollection',
  replaceObject: 'replaceObject',
  updateObject: 'updateObject',
  deleteObject: 'deleteObject',
};

/** Where the operation sends its values: a body template of the description, if it has one. */
type BodyOperation = keyof TargetDescription['bodies'];

/** Options of {@link Target.send}. */
export interface SendOptions {
  params?: Record<string, unknown>;
  /** Query parameters; pairs where one is given twice. */
  query?: Record<string, string> | Array<[string, string]>;
  /** The run's values, put into the description's body template. */
  body?: BodyValues;
  /** A body sent exactly as given (profile checks of bad bodies), instead of the template. */
  raw?: string;
  key?: string | null;
  headers?: Record<string, string>;
  /** Past any proxy in between (see ContractClient). */
  direct?: boolean;
}

/** Statuses our openapi.yaml documents: what `--level profile` holds a target to. */
const PROFILE_STATUSES = { gone: [404], notYours: [404] };

/** Options of a walk of a list. */
export interface WalkOptions {
  operation?: 'listCollections' | 'listObjects';
  params?: Record<string, unknown>;
  key?: string | undefined;
  pageSize?: number | undefined;
  /** More query parameters for every page asked for (not for followed links). */
  query?: Record<string, string>;
  /** Skips the check when the walk cannot show it saw every item. */
  complete?: boolean;
}

/** What a walk saw. */
export interface Walk {
  items: unknown[];
  pages: number;
  /** Why the walk is only part of the list, when it is. */
  partial?: string | undefined;
}

/** Replaces every string that is exactly a placeholder by its value; leaves out what has none. */
function fill(template: unknown, values: BodyValues): unknown {
  if (typeof template === 'string' && /^\{[a-z_]+\}$/.test(template)) {
    return values[template.slice(1, -1) as keyof BodyValues];
  }
  if (Array.isArray(template)) return template.map((item) => fill(item, values));
  if (template && typeof template === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(template)) {
      const filled = fill(value, values);
      if (filled !== undefined) out[key] = filled;
    }
    return out;
  }
  return template;
}

/** A value as a path segment or an id to compare: strings and numbers only. */
function idText(value: unknown): string | undefined {
  if (typeof value === 'string' && value !== '') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return undefined;
}

/**
 * The implementation under test as its description says it works: the checks ask it to "list
 * collections" or for "the id of this summary", never for a path or a field name of ours.
 */
export class Target {
  /** What the spec allows (`spec`), or exactly what our document says (`profile`). */
  readonly statuses: { gone: number[]; notYours: number[] };

  constructor(
    readonly description: TargetDescription,
    readonly http: ContractClient,
    /**
     * `--level profile`: every response is validated against our openapi.yaml and held to its
     * statuses; the spec checks become their stricter profile form.
     */
    readonly profile: boolean,
  ) {
    this.statuses = profile ? PROFILE_STATUSES : description.statuses;
  }

  /** Whether the description addresses an object through its collection (`{collection_id}`). */
  objectsNeedCollection(): boolean {
    return this.description.operations.getObject?.path.includes('{collection_id}') ?? false;
  }

  /** Whether the description offers the operation. */
  offers(operation: OperationName): boolean {
    return this.description.operations[operation] !== undefined;
  }

  /** Why a check that needs `operation` cannot run. */
  missing(operation: OperationName): string {
    return `the target description (${this.description.source}) offers no ${operation}`;
  }

  /** "METHOD path" of an operation with its parameters filled in, for messages and requests. */
  route(
    operation: OperationName,
    params: Record<string, unknown> = {},
  ): { method: string; path: string } {
    const template = this.description.operations[operation];
    if (!template) throw new Error(this.missing(operation));
    const path = template.path.replace(/\{([a-z_]+)\}/g, (_, name: string) => {
      const value = idText(params[name]);
      // @note Never an empty segment (`/collections//objects/x` answers 404 for the wrong reason).
      if (value === undefined)
        throw new Error(`${operation}: no value for {${name}} in ${template.path}`);
      return encodeURIComponent(value);
    });
    return { method: template.method, path };
  }

  /** Sends one operation; the response is returned whatever its status. */
  async send(
    operation: OperationName,
    options: SendOptions = {},
  ): Promise<ContractResponse & { method: string; path: string }> {
    // @note The run's values may be placed in the path too (`GET /search?q={query}`).
    const { method, path } = this.route(operation, { ...options.body, ...options.params });
    const query = new URLSearchParams(options.query).toString();
    const full = query ? `${path}${path.includes('?') ? '&' : '?'}${query}` : path;
    const template =
      operation in this.description.bodies
        ? this.description.bodies[operation as BodyOperation]
        : undefined;
    // @note fetch refuses a body on GET and HEAD; such an operation takes its values in the URL.
    const bodyless = ['GET', 'HEAD'].includes(method);
    const response = await this.http.request(method, full, {
      key: options.key,
      headers: options.headers,
      direct: options.direct,
      body:
        options.raw !== undefined
          ? options.raw
          : options.body && template !== undefined && !bodyless
            ? fill(template, options.body)
            : undefined,
      operationId: this.profile ? PROFILE_OPERATION[operation] : undefined,
    });
    return { ...response, method, path: full };
  }

  // ----- reading responses -------------------------------------------------------------------

  /** The summaries of a list page, or undefined when `list.items` names no array. */
  itemsOf(body: unknown): unknown[] | undefined {
    const items = resolvePointer(body, this.description.list.items);
    return Array.isArray(items) ? items : undefined;
  }

  /** The next-page token or link of a list page, or undefined on the last page. */
  nextOf(body: unknown): string | undefined {
    const next = resolvePointer(body, this.description.list.next);
    return typeof next === 'string' && next !== ''
      ? next
      : typeof next === 'number'
        ? String(next)
        : undefined;
  }

  /** The collection inside a get or create response. */
  collectionIn(body: unknown): unknown {
    return resolvePointer(body, this.description.collection.in);
  }

  collectionIdOf(collection: unknown): string | undefined {
    return idText(resolvePointer(collection, this.description.collection.id));
  }

  /** A collection's creation date in ms, from RFC 3339 or epoch seconds or milliseconds. */
  createdAtOf(collection: unknown): number | undefined {
    return instantOf(resolvePointer(collection, this.description.collection.createdAt));
  }

  objectCountOf(collection: unknown): number | undefined {
    const count = resolvePointer(collection, this.description.collection.objectCount);
    return Number.isInteger(count) && (count as number) >= 0 ? (count as number) : undefined;
  }

  /** A collection's name, when the description says where it is. */
  nameOf(collection: unknown): string | undefined {
    const pointer = this.description.collection.name;
    return pointer === undefined ? undefined : idText(resolvePointer(collection, pointer));
  }

  metadataOf(collection: unknown): unknown {
    return resolvePointer(collection, this.description.collection.metadata);
  }

  objectIn(body: unknown): unknown {
    return resolvePointer(body, this.description.object.in);
  }

  objectIdOf(object: unknown): string | undefined {
    return idText(resolvePointer(object, this.description.object.id));
  }

  /** The system fields the description names that the object lacks. */
  missingSystemFields(object: unknown): string[] {
    return this.description.object.systemFields.filter(
      (pointer) => resolvePointer(object, pointer) === undefined,
    );
  }

  hitsOf(body: unknown): unknown[] | undefined {
    const hits = resolvePointer(body, this.description.search.hits);
    return Array.isArray(hits) ? hits : undefined;
  }

  hitObjectIdOf(hit: unknown): string | undefined {
    return idText(resolvePointer(hit, this.description.search.hitObjectId));
  }

  isGone(status: number): boolean {
    return this.statuses.gone.includes(status);
  }

  isNotYours(status: number): boolean {
    return this.statuses.notYours.includes(status);
  }

  // ----- walking the list --------------------------------------------------------------------

  /**
   * Every summary of the list, page by page, as the description pages it: a token in a query
   * parameter, a link to follow, a page number or an offset. Fails on a repeated token, a next
   * link to another origin (keys stay with --base-url) or more than 1,000 pages. With
   * `complete: true`, a walk that cannot show it saw every item (no way to page is described,
   * yet the first page says there is more) skips the check instead of judging part of the list.
   */
  async walkCollections(options: WalkOptions = {}): Promise<unknown[]> {
    const walk = await this.walk(options);
    if (options.complete && walk.partial) throw new CheckSkipped(walk.partial);
    return walk.items;
  }

  /**
   * The walk itself, and why it is only part of the list when it is. `listObjects` (our
   * document's, profile checks) pages like the list of collections.
   */
  async walk(options: WalkOptions = {}): Promise<Walk> {
    const operation = options.operation ?? 'listCollections';
    const { paging, list } = this.description;
    const items: unknown[] = [];
    const seen = new Set<string>();
    let next: string | undefined;
    // @note A link is resolved against the page that held it, as a browser would: absolute,
    // root-relative (`/v1/collections?page=2`) and relative links all work.
    let pageUrl = '';
    let previous = '';
    for (let page = 1; page <= 1_000; page++) {
      const query: Record<string, string> = { ...options.query };
      if (paging.pageSize && options.pageSize) query[paging.pageSize] = String(options.pageSize);
      if (paging.page) query[paging.page] = String((paging.firstPage ?? 1) + page - 1);
      if (paging.offset) query[paging.offset] = String(items.length);
      let response: ContractResponse;
      if (next !== undefined && paging.follow) {
        pageUrl = new URL(next, pageUrl).href;
        if (!this.http.isHome(pageUrl) && paging.crossOrigin !== 'withoutKey')
          throw new CheckFailure(
            `page ${page - 1} of the list links its next page to another origin, ${new URL(pageUrl).origin} (${pageUrl}): the suite sends keys to ${new URL(this.http.baseUrl).origin} only, so it did not follow it (a description with paging.crossOrigin: withoutKey follows such links without credentials)`,
          );
        response = await this.http.request('GET', pageUrl, { key: options.key });
      } else {
        if (next !== undefined && paging.pageToken) query[paging.pageToken] = next;
        const sent = await this.send(operation, {
          query,
          key: options.key,
          params: options.params,
        });
        pageUrl = new URL(`${this.http.baseUrl.replace(/\/$/, '')}${sent.path}`).href;
        response = sent;
      }
      const numbered = paging.page !== undefined || paging.offset !== undefined;
      // @note Past the last numbered page some frameworks answer 404 (Django REST framework's
      // "Invalid page"): the end of the list, not a failure.
      if (numbered && page > 1 && response.status === 404) return { items, pages: page - 1 };
      if (response.status !== 200)
        throw new CheckFailure(`${operation} (page ${page}) answered ${response.status}, not 200`);
      const found = this.itemsOf(response.json);
      if (!found)
        throw new CheckFailure(
          `page ${page} of the list has no array at ${list.items || '(the body)'}`,
        );
      // @note A target that clamps the page number answers its last page again: the end.
      const same = JSON.stringify(found) === previous && found.length > 0;
      if (numbered && same) return { items, pages: page - 1 };
      previous = JSON.stringify(found);
      items.push(...found);
      const totalItems = this.#whole(response.json, paging.totalItems);
      const totalPages = this.#whole(response.json, paging.totalPages);
      if (paging.page || paging.offset) {
        // @note Numbered and offset pages end at the stated total, at a next value given as
        // null or empty, or at the first empty page.
        const stated = resolvePointer(response.json, list.next);
        const last =
          found.length === 0 ||
          stated === null ||
          stated === '' ||
          (totalPages !== undefined && page >= totalPages) ||
          (totalItems !== undefined && items.length >= totalItems);
        if (!last) continue;
        // @note Judged on complete walks only: those run alone (exclusive checks), while other
        // walks may see another check's write move the total between two pages.
        if (options.complete && totalItems !== undefined && items.length !== totalItems)
          throw new CheckFailure(
            `the list says it holds ${totalItems} collections (at ${paging.totalItems}); walking its pages showed ${items.length}`,
          );
        return { items, pages: page };
      }
      next = this.nextOf(response.json);
      if (next === undefined) return { items, pages: page };
      if (!paging.follow && !paging.pageToken)
        return {
          items,
          pages: page,
          partial: `the list has more than one page (a next value at ${list.next}) and the description says no way to ask for the next one (paging.pageToken, follow, page or offset): only page 1 (${found.length} items) was seen`,
        };
      if (seen.has(next))
        throw new CheckFailure(
          `the list returned the same next-page token twice: the walk would never end`,
        );
      seen.add(next);
    }
    throw new CheckFailure('the list did not end after 1,000 pages');
  }

  /** A whole number at `pointer` of a list body, if the description names one. */
  #whole(body: unknown, pointer: string | undefined): number | undefined {
    if (pointer === undefined) return undefined;
    const value = resolvePointer(body, pointer);
    return Number.isInteger(value) && (value as number) >= 0 ? (value as number) : undefined;
  }
}
