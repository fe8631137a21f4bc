import type { operations } from '../../generated/openapi.ts';
import type { ContractClient, ContractResponse } from '../client.ts';
import { instantOf } from './dates.ts';
import {
  OPERATION_IDS,
  placeholdersIn,
  type OperationName,
  type OperationTemplate,
  type TargetDescription,
} from './description.ts';
import { resolvePointer } from './pointer.ts';
import { readPlace } from './place.ts';
import { itemsToActOn, nextValue, walkList, type Walk, type WalkOptions } from './walk.ts';

export type { Walk, WalkOptions } from './walk.ts';

/** The values a run puts into body templates. */
export interface BodyValues {
  name?: string;
  metadata?: Record<string, unknown>;
  content?: unknown;
  query?: string;
  collection_ids?: string[];
}

/**
 * The operationId of our openapi.yaml for each operation, for the profile's response validation
 * (generated: `search` is `searchObjects`).
 */
export const PROFILE_OPERATION: Record<OperationName, keyof operations> = OPERATION_IDS;

/** Where the operation sends its values: a body template of the description, if it has one. */
type BodyOperation = keyof TargetDescription['bodies'];

/** An answer, with the method and path it was sent to. */
type Sent = ContractResponse & { method: string; path: string };

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

  /**
   * Whether a search can be scoped: its path or the body it sends has a place for the ids
   * (`{collection_ids}`). A GET or HEAD sends no body, whatever body the description gives.
   */
  canScopeSearch(): boolean {
    const search = this.description.operations.search;
    if (!search) return false;
    const sendsBody = !['GET', 'HEAD'].includes(search.method);
    return (
      search.path.includes('{collection_ids}') ||
      (sendsBody &&
        JSON.stringify(this.description.bodies.search ?? null).includes('{collection_ids}'))
    );
  }

  /** Why a check that needs `operation` cannot run. */
  missing(operation: OperationName): string {
    return `the target description (${this.description.source}) offers no ${operation}`;
  }

  /** "METHOD path" of an operation with its parameters filled in, for messages and requests. */
  route(
    operation: OperationName,
    params: Record<string, unknown> = {},
    template: OperationTemplate | undefined = this.description.operations[operation],
  ): { method: string; path: string } {
    if (!template) throw new Error(this.missing(operation));
    const valueOf = (name: string) => {
      // @note A list in a URL (a search's scope) is its ids joined by commas.
      const given = params[name];
      return Array.isArray(given) ? given.map(idText).join(',') || undefined : idText(given);
    };
    const [pathTemplate = '', queryTemplate] = template.path.split('?');
    const path = pathTemplate.replace(/\{([a-z_]+)\}/g, (_, name: string) => {
      const value = valueOf(name);
      // @note Never an empty segment (`/collections//objects/x` answers 404 for the wrong reason).
      if (value === undefined)
        throw new Error(`${operation}: no value for {${name}} in ${template.path}`);
      return encodeURIComponent(value);
    });
    // @note A query parameter whose value has none is left out (a search with no scope).
    const query = (queryTemplate ?? '')
      .split('&')
      .filter((pair) => pair !== '')
      .flatMap((pair) => {
        const names = [...pair.matchAll(/\{([a-z_]+)\}/g)].map((match) => match[1]!);
        if (names.some((name) => valueOf(name) === undefined)) return [];
        return [
          pair.replace(/\{([a-z_]+)\}/g, (_, name: string) => encodeURIComponent(valueOf(name)!)),
        ];
      })
      .join('&');
    return { method: template.method, path: query ? `${path}?${query}` : path };
  }

  /** Whether the operation's body (or one of its parts') carries `placeholder`, e.g. `{name}`. */
  carries(operation: OperationName, placeholder: string): boolean {
    const template = this.description.operations[operation];
    const bodies = template?.parts?.map((part) => part.body) ?? [
      this.description.bodies[operation as BodyOperation],
    ];
    return (
      template !== undefined && bodies.some((body) => placeholdersIn(body).includes(placeholder))
    );
  }

  /**
   * Sends one operation; the response is returned whatever its status. An update the description
   * takes in parts sends each part whose body carries a value given, in order, and answers with
   * the first refusal or else the last part's answer.
   */
  async send(operation: OperationName, options: SendOptions = {}): Promise<Sent> {
    const template = this.description.operations[operation];
    const parts = template?.parts;
    if (!parts) return this.#sendOne(operation, template, undefined, options);
    const values = options.body ?? {};
    const given = (body: unknown) =>
      placeholdersIn(body).some((p) => values[p.slice(1, -1) as keyof BodyValues] !== undefined);
    // @note A raw body, or no value any part carries, goes to the first part as it is.
    const chosen = options.raw === undefined ? parts.filter((part) => given(part.body)) : [];
    let answer: Sent | undefined;
    for (const part of chosen.length > 0 ? chosen : parts.slice(0, 1)) {
      answer = await this.#sendOne(operation, part, part.body, options);
      if (answer.status < 200 || answer.status > 299) break;
    }
    return answer!;
  }

  async #sendOne(
    operation: OperationName,
    operationTemplate: OperationTemplate | undefined,
    partBody: unknown,
    options: SendOptions,
  ): Promise<Sent> {
    // @note The run's values may be placed in the path too (`GET /search?q={query}`).
    const { method, path } = this.route(
      operation,
      { ...options.body, ...options.params },
      operationTemplate,
    );
    const query = new URLSearchParams(options.query).toString();
    const full = query ? `${path}${path.includes('?') ? '&' : '?'}${query}` : path;
    const template =
      partBody !== undefined
        ? partBody
        : operation in this.description.bodies
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
      operationId: PROFILE_OPERATION[operation],
    });
    // @note Not spread: the body's JSON is parsed only when read (ContractClient.request).
    return Object.defineProperties(response, {
      method: { value: method, enumerable: true },
      path: { value: full, enumerable: true },
    }) as Sent;
  }

  // ----- reading responses -------------------------------------------------------------------

  /** The summaries of a list page, or undefined when `list.items` names no array. */
  itemsOf(body: unknown): unknown[] | undefined {
    const items = resolvePointer(body, this.description.list.items);
    return Array.isArray(items) ? items : undefined;
  }

  /** The next-page token or link of a list page (its body or a header), or undefined on the last page. */
  nextOf(page: ContractResponse): string | undefined {
    return nextValue(readPlace(page, this.description.list.next));
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

  /** The content an object holds, where the description says it lives (else undefined). */
  contentAt(object: unknown): { content: unknown } | undefined {
    const pointer = this.description.object.content;
    return pointer === undefined ? undefined : { content: resolvePointer(object, pointer) };
  }

  /**
   * The object a hit holds: where the description says (`search.hitObject`), else the object
   * around its id, the hit's object id pointer less the object's own (`/object` of `/object/id`
   * where an object's id is `/id`; the hit itself of `/id`). Undefined where the hit's id pointer
   * does not end as an object's does (`/objectId`): the hit holds no object around it.
   */
  hitObjectOf(hit: unknown): unknown {
    const { hitObject, hitObjectId } = this.description.search;
    const own = this.description.object.id;
    if (hitObject !== undefined) return resolvePointer(hit, hitObject);
    return hitObjectId.endsWith(own)
      ? resolvePointer(hit, hitObjectId.slice(0, -own.length))
      : undefined;
  }

  /** The content a hit shows, where the description says a hit holds it (else undefined). */
  hitContentOf(hit: unknown): { content: unknown } | undefined {
    const pointer = this.description.search.hitContent;
    return pointer === undefined ? undefined : { content: resolvePointer(hit, pointer) };
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
    return itemsToActOn(await this.walk(options), options.complete);
  }

  /**
   * The walk itself, and why it is only part of the list when it is. `listObjects` (our
   * document's) pages like the list of collections.
   */
  walk(options: WalkOptions = {}): Promise<Walk> {
    return walkList(this, options);
  }
}
