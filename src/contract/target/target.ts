import type { ContractClient, ContractResponse } from '../client.ts';
import { CheckFailure } from '../failure.ts';
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
};

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
  constructor(
    readonly description: TargetDescription,
    readonly http: ContractClient,
    /** Whether responses are validated against our openapi.yaml (only with the default description). */
    readonly profile: boolean,
  ) {}

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
    const path = template.path.replace(/\{([a-z_]+)\}/g, (_, name: string) =>
      encodeURIComponent(idText(params[name]) ?? ''),
    );
    return { method: template.method, path };
  }

  /** Sends one operation; the response is returned whatever its status. */
  async send(
    operation: OperationName,
    options: {
      params?: Record<string, unknown>;
      query?: Record<string, string>;
      body?: BodyValues;
      key?: string | null;
      headers?: Record<string, string>;
    } = {},
  ): Promise<ContractResponse & { method: string; path: string }> {
    // @note The run's values may be placed in the path too (`GET /search?q={query}`).
    const { method, path } = this.route(operation, { ...options.body, ...options.params });
    const query = new URLSearchParams(options.query).toString();
    const full = query ? `${path}${path.includes('?') ? '&' : '?'}${query}` : path;
    const template =
      operation in this.description.bodies
        ? this.description.bodies[operation as keyof TargetDescription['bodies']]
        : undefined;
    const response = await this.http.request(method, full, {
      key: options.key,
      headers: options.headers,
      // @note fetch refuses a body on GET and HEAD; such an operation takes its values in the URL.
      body:
        options.body && template !== undefined && !['GET', 'HEAD'].includes(method)
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
    return this.description.statuses.gone.includes(status);
  }

  isNotYours(status: number): boolean {
    return this.description.statuses.notYours.includes(status);
  }

  // ----- walking the list --------------------------------------------------------------------

  /**
   * Every summary of the list, page by page, as the description pages it (a token in a query
   * parameter, or a link to follow). Fails on a repeated token or more than 1,000 pages.
   */
  async walkCollections(options: { key?: string; pageSize?: number } = {}): Promise<unknown[]> {
    const { paging, list } = this.description;
    const items: unknown[] = [];
    const seen = new Set<string>();
    let next: string | undefined;
    // @note A link is resolved against the page that held it, as a browser would: absolute,
    // root-relative (`/v1/collections?page=2`) and relative links all work.
    let pageUrl = '';
    for (let page = 1; page <= 1_000; page++) {
      const query: Record<string, string> = {};
      if (paging.pageSize && options.pageSize) query[paging.pageSize] = String(options.pageSize);
      let response: ContractResponse;
      if (next !== undefined && paging.follow) {
        pageUrl = new URL(next, pageUrl).href;
        response = await this.http.request('GET', pageUrl, { key: options.key });
      } else {
        if (next !== undefined && paging.pageToken) query[paging.pageToken] = next;
        const sent = await this.send('listCollections', { query, key: options.key });
        pageUrl = new URL(`${this.http.baseUrl.replace(/\/$/, '')}${sent.path}`).href;
        response = sent;
      }
      if (response.status !== 200)
        throw new CheckFailure(
          `listing collections (page ${page}) answered ${response.status}, not 200`,
        );
      const found = this.itemsOf(response.json);
      if (!found)
        throw new CheckFailure(
          `page ${page} of the list has no array at ${list.items || '(the body)'}`,
        );
      items.push(...found);
      next = this.nextOf(response.json);
      if (next === undefined || (!paging.follow && !paging.pageToken)) return items;
      if (seen.has(next))
        throw new CheckFailure(
          `the list returned the same next-page token twice: the walk would never end`,
        );
      seen.add(next);
    }
    throw new CheckFailure('the list did not end after 1,000 pages');
  }
}
