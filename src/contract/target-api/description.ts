/**
 * A target description: how one implementation realises what the spec leaves open. The default
 * is the kit's own `openapi.yaml` (`contracts/answers-openapi.yaml`, generated from it, says the
 * same as a file), so a target that adopted our document needs none.
 *
 * The operations' vocabulary is generated from `openapi.yaml` (`src/generated/operations.ts`):
 * their names, paths, path parameters and body fields. What is written here by hand is how a
 * description may use them (aliases, which placeholders a path must carry) and the default's
 * choices beyond the operations (where values are in responses, paging, statuses).
 */
import {
  operationBodies,
  operationIds,
  operationParameters,
  operationTemplates,
} from '../../generated/operations.ts';

type OperationId = (typeof operationIds)[number];

/**
 * The one operation a description names other than by its operationId in openapi.yaml: the
 * shorter name target files have always used. Target files take the operationId as well.
 */
export const OPERATION_ALIASES = { searchObjects: 'search' } as const;

type Aliased<Id extends string> = Id extends keyof typeof OPERATION_ALIASES
  ? (typeof OPERATION_ALIASES)[Id]
  : Id;

/** The operation a description names for an operationId of our document. */
const nameOf = <Id extends OperationId>(id: Id): Aliased<Id> =>
  ((OPERATION_ALIASES as Record<string, string>)[id] ?? id) as Aliased<Id>;

/**
 * The operations a description can name: every operation of openapi.yaml (generated, in the
 * document's order), so a new operation there is one here. The spec states paths for
 * listCollections and getCollection only; the rest are our document's (checks and explore use
 * them where a description offers them).
 */
export const OPERATION_NAMES = operationIds.map(nameOf);

export type OperationName = Aliased<OperationId>;

/** The operationId in openapi.yaml of each operation a description names. */
export const OPERATION_IDS = Object.fromEntries(operationIds.map((id) => [nameOf(id), id])) as {
  [Id in OperationId as Aliased<Id>]: Id;
};

/** Whether an operation changes data (generated from openapi.yaml). */
export const writes = (operation: OperationName): boolean =>
  operationParameters[OPERATION_IDS[operation]]?.writes ?? true;

/** One operation: a method and a path template relative to `--base-url`. */
export interface OperationTemplate {
  method: string;
  path: string;
  /**
   * An update a target takes as several requests, each changing what its body names (metadata by
   * a sub-resource `PUT`, the name by `PATCH`): an update sends the parts whose bodies carry a
   * value it has, in this order. The template's own method and path are the first part's.
   */
  parts?: readonly OperationPart[] | undefined;
}

/** One request of an update taken in parts: its method, path template and body template. */
export interface OperationPart {
  method: string;
  path: string;
  body: unknown;
}

/** The placeholders a body template carries, each once, in order. */
export function placeholdersIn(template: unknown): string[] {
  if (typeof template === 'string') return /^\{[a-z_]+\}$/.test(template) ? [template] : [];
  const inner = Array.isArray(template)
    ? template
    : template && typeof template === 'object'
      ? Object.values(template)
      : [];
  return [...new Set(inner.flatMap(placeholdersIn))];
}

/**
 * Whether an operation may be given in parts: an update of an existing resource whose body takes
 * more than one value (generated from openapi.yaml: `updateCollection`'s name and metadata).
 */
export const takesParts = (operation: OperationName): boolean =>
  writes(operation) &&
  PATH_PARAMETERS[operation].required.length > 0 &&
  ((BODY_PLACEHOLDERS as Partial<Record<OperationName, readonly string[]>>)[operation]?.length ??
    0) > 1;

/**
 * Where a value is in a response: a JSON Pointer into the body, or a response header
 * (`place.ts` reads it).
 */
export type Place = string | { header: string };

/** A description with every default filled in. */
export interface TargetDescription {
  /** Where it came from, for messages: a file, or "the default (openapi.yaml)". */
  source: string;
  operations: Partial<Record<OperationName, OperationTemplate>>;
  bodies: Record<BodyOperation, unknown>;
  /** `next`: in the body, or in a header (`{ header: Link }`: RFC 8288's `rel="next"`). */
  list: { items: string; next: Place };
  paging: {
    pageSize?: string | undefined;
    pageToken?: string | undefined;
    follow: boolean;
    /** The query parameter of a page number (1, 2, ...; `firstPage` when it starts elsewhere). */
    page?: string | undefined;
    firstPage?: number | undefined;
    /** The query parameter of an offset (0, then the number of items seen so far). */
    offset?: string | undefined;
    /** Where a list page gives the number of pages, or of items (body or header): how a walk knows it is done. */
    totalPages?: Place | undefined;
    totalItems?: Place | undefined;
    /**
     * A next link to another origin than --base-url's: `refuse` (the default) fails the walk
     * naming that origin; `withoutKey` follows it with no credential. Keys never leave home.
     */
    crossOrigin?: 'refuse' | 'withoutKey' | undefined;
  };
  collection: {
    in: string;
    id: string;
    createdAt: string;
    objectCount: string;
    metadata: string;
    name?: string | undefined;
  };
  /** `content`: where the content sent lives in an object, when the description says. */
  object: { in: string; id: string; systemFields: string[]; content?: string | undefined };
  /**
   * `hitContent`: where a hit holds its object's content (judged when given); `limit`: the most
   * hits a search answers (the spec states none).
   */
  search: {
    hits: string;
    hitObjectId: string;
    hitContent?: string | undefined;
    /**
     * Where a hit holds its whole object (system fields beside the content), judged by the
     * object's rules: every system field there, and the content where `object.content` says.
     */
    hitObject?: string | undefined;
    limit?: number | undefined;
  };
  statuses: { gone: number[]; notYours: number[] };
  /** Sizes the target refuses past (the spec states none): explore stays within them. */
  limits: Limits;
  /**
   * How an update treats what it is sent (the spec states no update): `replace`, `merge` (the
   * keys sent replace theirs, the rest stay) or `merge-patch` (RFC 7396: nested objects merge,
   * `null` removes). Undefined: any of the three, as long as the answer is one of them.
   */
  updates: { metadata?: UpdateStyle | undefined; content?: UpdateStyle | undefined };
  /**
   * How long, in ms, a write may take to show in each kind of read (the spec states none):
   * `lists`, `search`, and `cascade` (a get after a delete: a collection's objects removed by a
   * cascade that completes later). A read within its window is asked again until it shows the
   * write; `--settle` overrides every window. Unsaid: at once.
   */
  consistency: {
    lists?: number | undefined;
    search?: number | undefined;
    cascade?: number | undefined;
  };
  /** The list of a collection's objects, when it pages otherwise than the list of collections. */
  objectList?: { list: TargetDescription['list']; paging: TargetDescription['paging'] } | undefined;
}

export const UPDATE_STYLES = ['replace', 'merge', 'merge-patch'] as const;
export type UpdateStyle = (typeof UPDATE_STYLES)[number];

/** Sizes a target refuses past, each its own choice (the spec states none). */
export interface Limits {
  /**
   * The longest string in content or metadata, in characters as JavaScript counts them (UTF-16
   * code units): a string cut to it holds at most as many code points.
   */
  string?: number | undefined;
  /** The deepest nesting of metadata or content: an object or array of scalars is 1. */
  depth?: number | undefined;
  /** The longest array in metadata or content. */
  arrayLength?: number | undefined;
  /** The largest metadata, in bytes of compact UTF-8 JSON. */
  metadataBytes?: number | undefined;
  /** The largest content of an object, in bytes of compact UTF-8 JSON. */
  contentBytes?: number | undefined;
  /** The largest request body, in bytes of UTF-8 JSON. */
  body?: number | undefined;
  /** The most keys in a collection's metadata. */
  metadataKeys?: number | undefined;
  /** The largest page size a list accepts. */
  pageSize?: number | undefined;
}

/** The operations that take a body, as a description names them. */
type BodyOperation = Aliased<keyof typeof operationBodies>;

/**
 * The placeholders each body template may use: the fields of the operation's request body in
 * openapi.yaml (generated; those that page, `limit` and `cursor`, are no placeholder).
 */
export const BODY_PLACEHOLDERS = Object.fromEntries(
  Object.entries(operationBodies).map(([id, fields]): [string, readonly string[]] => [
    nameOf(id as OperationId),
    fields.map((field) => `{${field}}`),
  ]),
) as Record<BodyOperation, readonly string[]>;

/**
 * The placeholders each path template must and may carry, from the operation's path in
 * openapi.yaml (generated): it must carry the last of its path parameters, the one that names what
 * it reaches; those before it name its parents, which a target may leave out (an object's id is
 * unique on its own, OBJ-2). An operation that changes nothing may take its body's values in the
 * URL as well, so that it can be asked by GET: `GET /search?q={query}&scope={collection_ids}`
 * (ids joined by commas).
 */
export const PATH_PARAMETERS = Object.fromEntries(
  operationIds.map((id) => {
    const { path, writes } = operationParameters[id];
    const inUrl = writes ? [] : ((operationBodies as Record<string, readonly string[]>)[id] ?? []);
    return [nameOf(id), { required: path.slice(-1), allowed: [...path, ...inUrl] }];
  }),
) as Record<OperationName, { required: string[]; allowed: string[] }>;

/** The kit's own openapi.yaml as a description, relative to a `--base-url` of `…/api/answers/v1`. */
export const DEFAULT_DESCRIPTION: TargetDescription = {
  source: 'the default description (openapi.yaml)',
  // @note Our document's own paths, generated from it (relative to the API root).
  operations: Object.fromEntries(
    operationIds.map((id) => [nameOf(id), { ...operationTemplates[id] }]),
  ) as Record<OperationName, OperationTemplate>,
  // @note Each body of our document with every field it takes, each field its placeholder.
  bodies: Object.fromEntries(
    Object.entries(BODY_PLACEHOLDERS).map(([name, placeholders]) => [
      name,
      Object.fromEntries(
        placeholders.map((placeholder) => [placeholder.slice(1, -1), placeholder]),
      ),
    ]),
  ) as Record<BodyOperation, unknown>,
  list: { items: '/data', next: '/next_cursor' },
  paging: { pageSize: 'limit', pageToken: 'cursor', follow: false },
  collection: {
    in: '',
    id: '/id',
    createdAt: '/created_at',
    objectCount: '/object_count',
    metadata: '/metadata',
    name: '/name',
  },
  object: { in: '', id: '/id', systemFields: ['/created_at', '/updated_at', '/version'] },
  search: { hits: '/data', hitObjectId: '/object/id' },
  statuses: { gone: [404, 410], notYours: [401, 403, 404] },
  limits: {},
  consistency: {},
  // @note Our document's (GAP-WRITE-OPS): a collection PATCH replaces metadata whole, an object
  // PATCH is a JSON Merge Patch of content.
  updates: { metadata: 'replace', content: 'merge-patch' },
};
