/**
 * A target description: how one implementation realises what the spec leaves open. The default
 * is the kit's own `openapi.yaml` (`contracts/answers-openapi.yaml` says the same as a file), so a
 * target that adopted our document needs none.
 */
import { operationIds, operationTemplates } from '../../generated/operations.ts';

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

/** One operation: a method and a path template relative to `--base-url`. */
export interface OperationTemplate {
  method: string;
  path: string;
}

/** A description with every default filled in. */
export interface TargetDescription {
  /** Where it came from, for messages: a file, or "the default (openapi.yaml)". */
  source: string;
  operations: Partial<Record<OperationName, OperationTemplate>>;
  bodies: Record<keyof typeof BODY_PLACEHOLDERS, unknown>;
  list: { items: string; next: string };
  paging: {
    pageSize?: string | undefined;
    pageToken?: string | undefined;
    follow: boolean;
    /** The query parameter of a page number (1, 2, ...; `firstPage` when it starts elsewhere). */
    page?: string | undefined;
    firstPage?: number | undefined;
    /** The query parameter of an offset (0, then the number of items seen so far). */
    offset?: string | undefined;
    /** Where a list body gives the number of pages, or of items: how a walk knows it is done. */
    totalPages?: string | undefined;
    totalItems?: string | undefined;
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
  /** The list of a collection's objects, when it pages otherwise than the list of collections. */
  objectList?: { list: TargetDescription['list']; paging: TargetDescription['paging'] } | undefined;
}

export const UPDATE_STYLES = ['replace', 'merge', 'merge-patch'] as const;
export type UpdateStyle = (typeof UPDATE_STYLES)[number];

/** Sizes a target refuses past, each its own choice (the spec states none). */
export interface Limits {
  /** The longest string, in characters, in content or metadata. */
  string?: number | undefined;
  /** The largest request body, in bytes of UTF-8 JSON. */
  body?: number | undefined;
  /** The most keys in a collection's metadata. */
  metadataKeys?: number | undefined;
  /** The largest page size a list accepts. */
  pageSize?: number | undefined;
}

/** The placeholders each body template may use, and each path template must or may carry. */
export const BODY_PLACEHOLDERS = {
  createCollection: ['{name}', '{metadata}'],
  createObject: ['{content}'],
  search: ['{query}', '{collection_ids}'],
  updateCollection: ['{name}', '{metadata}'],
  replaceObject: ['{content}'],
  updateObject: ['{content}'],
} as const;

export const PATH_PARAMETERS: Record<OperationName, { required: string[]; allowed: string[] }> = {
  listCollections: { required: [], allowed: [] },
  getCollection: { required: ['collection_id'], allowed: ['collection_id'] },
  deleteCollection: { required: ['collection_id'], allowed: ['collection_id'] },
  getObject: { required: ['object_id'], allowed: ['collection_id', 'object_id'] },
  // @note A search that takes its query (and its scope) in the URL:
  // `GET /search?q={query}&scope={collection_ids}` (ids joined by commas).
  search: { required: [], allowed: ['query', 'collection_ids'] },
  createCollection: { required: [], allowed: [] },
  createObject: { required: ['collection_id'], allowed: ['collection_id'] },
  listObjects: { required: ['collection_id'], allowed: ['collection_id'] },
  updateCollection: { required: ['collection_id'], allowed: ['collection_id'] },
  replaceObject: { required: ['object_id'], allowed: ['collection_id', 'object_id'] },
  updateObject: { required: ['object_id'], allowed: ['collection_id', 'object_id'] },
  deleteObject: { required: ['object_id'], allowed: ['collection_id', 'object_id'] },
};

/** The kit's own openapi.yaml as a description, relative to a `--base-url` of `…/api/answers/v1`. */
export const DEFAULT_DESCRIPTION: TargetDescription = {
  source: 'the default description (openapi.yaml)',
  // @note Our document's own paths, generated from it (relative to the API root).
  operations: Object.fromEntries(
    operationIds.map((id) => [nameOf(id), { ...operationTemplates[id] }]),
  ) as Record<OperationName, OperationTemplate>,
  bodies: {
    createCollection: { name: '{name}', metadata: '{metadata}' },
    createObject: { content: '{content}' },
    search: { query: '{query}', collection_ids: '{collection_ids}' },
    updateCollection: { metadata: '{metadata}' },
    replaceObject: { content: '{content}' },
    updateObject: { content: '{content}' },
  },
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
  // @note Our document's (GAP-WRITE-OPS): a collection PATCH replaces metadata whole, an object
  // PATCH is a JSON Merge Patch of content.
  updates: { metadata: 'replace', content: 'merge-patch' },
};
