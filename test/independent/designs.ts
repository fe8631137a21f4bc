/**
 * A matrix of correct designs (issue 35): every decision the spec leaves open that the
 * independent server makes more than one correct way, and a pairwise covering set of them. Each
 * row is a server (`startIndependentServer({ paging, indexLag, design })`) and the target
 * description it needs; none of them breaks a stated rule, so the fixed suite and explore must
 * find nothing in any.
 *
 * The covering set: the switches of more than two choices are paging (5) × search (3) × ties (3)
 * × update (3) × cascade (3) × fieldLimits (3). Rows 1-9 are the orthogonal array L9(3^4) over
 * the first three choices of paging and the three of search, ties and update (search = b, ties =
 * b + a, update = b + 2a, mod 3), which holds every pair of those once; rows 10-12 pair the fourth
 * paging style (`cursor`) with each choice of search, ties and update, rows 13-15 the fifth
 * (`link-header`, issue 48: a next page the description reads from an RFC 8288 `Link` header).
 * Issue 48's switches (cascade, fieldLimits, updateOps, hits) and the four older ones of two
 * choices were then set row by row, by a search for an assignment (hill climbing from random
 * rows, found on its first restart; the result is kept here as data) so that each pairs with
 * every choice of every other switch. 15 rows is the least any pairwise set can be: paging ×
 * search alone has 15 pairs. `designs.node.test.ts` proves the coverage from this table.
 */
import type { Design, Paging } from './server.ts';

/** The switches, each with every correct choice the server offers. */
export const SWITCHES = {
  paging: ['links', 'pages', 'offset', 'cursor', 'link-header'],
  search: ['body-scoped', 'body', 'query'],
  ties: ['sequence', 'never', 'id'],
  update: ['merge', 'replace', 'merge-patch'],
  notYours: [404, 401],
  gone: [410, 404],
  limits: ['roomy', 'tight'],
  indexLag: [0, 2],
  /** A collection's objects removed with it, or 300 ms later: with the window declared, or by `--settle`. */
  cascade: ['at-once', 'delayed-declared', 'delayed-settle'],
  /** Metadata over 8 KiB or nesting past 8 levels refused, undeclared (explore learns it) or declared. */
  fieldLimits: ['none', 'undeclared', 'declared'],
  /** A collection updated by one PATCH, or metadata by `PUT …/metadata` and the name by PATCH. */
  updateOps: ['one', 'split'],
  /** A search hit's `item`: the id and content alone, or the whole object. */
  hits: ['content', 'object'],
} as const satisfies Record<string, readonly unknown[]>;

export type SwitchName = keyof typeof SWITCHES;

/** One correct design: a choice for every switch. */
export interface DesignRow {
  paging: Paging;
  search: NonNullable<Design['search']>;
  ties: NonNullable<Design['ties']>;
  update: NonNullable<Design['update']>;
  notYours: NonNullable<Design['notYours']>;
  gone: NonNullable<Design['gone']>;
  limits: NonNullable<Design['limits']>;
  /** A new object is found by search only after this many more searches (Store.indexLag). */
  indexLag: number;
  cascade: (typeof SWITCHES.cascade)[number];
  fieldLimits: (typeof SWITCHES.fieldLimits)[number];
  updateOps: NonNullable<Design['updateOps']>;
  hits: NonNullable<Design['hits']>;
}

/**
 * The row the seeded variants of issue 48's designs start from (explore-variants.ts,
 * DESIGN_VARIANTS): every switch its first choice; a variant sets what its bug needs.
 */
export const DESIGN_VARIANT_BASE: DesignRow = {
  paging: 'links',
  search: 'body-scoped',
  ties: 'sequence',
  update: 'merge',
  notYours: 404,
  gone: 410,
  limits: 'roomy',
  indexLag: 0,
  cascade: 'at-once',
  fieldLimits: 'none',
  updateOps: 'one',
  hits: 'content',
};

// prettier-ignore
export const DESIGNS: readonly DesignRow[] = [
  { paging: 'links',       search: 'body-scoped', ties: 'sequence', update: 'merge',       notYours: 404, gone: 404, limits: 'tight', indexLag: 0, cascade: 'delayed-declared', fieldLimits: 'declared',   updateOps: 'split', hits: 'content' },
  { paging: 'links',       search: 'body',        ties: 'never',    update: 'replace',     notYours: 401, gone: 410, limits: 'roomy', indexLag: 0, cascade: 'at-once',          fieldLimits: 'undeclared', updateOps: 'one',   hits: 'content' },
  { paging: 'links',       search: 'query',       ties: 'id',       update: 'merge-patch', notYours: 401, gone: 410, limits: 'roomy', indexLag: 2, cascade: 'delayed-settle',   fieldLimits: 'none',       updateOps: 'split', hits: 'object' },
  { paging: 'pages',       search: 'body-scoped', ties: 'never',    update: 'merge-patch', notYours: 401, gone: 404, limits: 'roomy', indexLag: 2, cascade: 'at-once',          fieldLimits: 'undeclared', updateOps: 'one',   hits: 'content' },
  { paging: 'pages',       search: 'body',        ties: 'id',       update: 'merge',       notYours: 404, gone: 410, limits: 'roomy', indexLag: 0, cascade: 'delayed-declared', fieldLimits: 'none',       updateOps: 'one',   hits: 'object' },
  { paging: 'pages',       search: 'query',       ties: 'sequence', update: 'replace',     notYours: 401, gone: 410, limits: 'tight', indexLag: 0, cascade: 'delayed-settle',   fieldLimits: 'declared',   updateOps: 'split', hits: 'object' },
  { paging: 'offset',      search: 'body-scoped', ties: 'id',       update: 'replace',     notYours: 404, gone: 410, limits: 'tight', indexLag: 2, cascade: 'delayed-declared', fieldLimits: 'declared',   updateOps: 'one',   hits: 'content' },
  { paging: 'offset',      search: 'body',        ties: 'sequence', update: 'merge-patch', notYours: 404, gone: 404, limits: 'roomy', indexLag: 2, cascade: 'delayed-settle',   fieldLimits: 'none',       updateOps: 'one',   hits: 'content' },
  { paging: 'offset',      search: 'query',       ties: 'never',    update: 'merge',       notYours: 401, gone: 404, limits: 'roomy', indexLag: 0, cascade: 'at-once',          fieldLimits: 'undeclared', updateOps: 'split', hits: 'object' },
  { paging: 'cursor',      search: 'body-scoped', ties: 'sequence', update: 'replace',     notYours: 401, gone: 410, limits: 'tight', indexLag: 2, cascade: 'at-once',          fieldLimits: 'none',       updateOps: 'one',   hits: 'object' },
  { paging: 'cursor',      search: 'body',        ties: 'never',    update: 'merge-patch', notYours: 404, gone: 404, limits: 'tight', indexLag: 0, cascade: 'delayed-declared', fieldLimits: 'declared',   updateOps: 'split', hits: 'content' },
  { paging: 'cursor',      search: 'query',       ties: 'id',       update: 'merge',       notYours: 404, gone: 404, limits: 'roomy', indexLag: 2, cascade: 'delayed-settle',   fieldLimits: 'undeclared', updateOps: 'split', hits: 'object' },
  { paging: 'link-header', search: 'body-scoped', ties: 'never',    update: 'merge-patch', notYours: 404, gone: 410, limits: 'tight', indexLag: 0, cascade: 'delayed-settle',   fieldLimits: 'none',       updateOps: 'one',   hits: 'object' },
  { paging: 'link-header', search: 'body',        ties: 'id',       update: 'merge',       notYours: 404, gone: 404, limits: 'roomy', indexLag: 2, cascade: 'at-once',          fieldLimits: 'declared',   updateOps: 'split', hits: 'object' },
  { paging: 'link-header', search: 'query',       ties: 'sequence', update: 'replace',     notYours: 401, gone: 404, limits: 'tight', indexLag: 2, cascade: 'delayed-declared', fieldLimits: 'undeclared', updateOps: 'one',   hits: 'content' },
];

/** A row's name for test titles: its choices, in the order of SWITCHES. */
export function designName(row: DesignRow): string {
  return (Object.keys(SWITCHES) as SwitchName[]).map((name) => `${name}=${row[name]}`).join(' ');
}

/** The server options of a row. */
export function serverOptions(row: DesignRow) {
  const { paging, indexLag, search, ties, update, notYours, gone, limits, updateOps, hits } = row;
  const design: Design = {
    search,
    ties,
    update,
    notYours,
    gone,
    limits,
    updateOps,
    hits,
    cascade: row.cascade === 'at-once' ? 'at-once' : 'delayed',
    fieldLimits: row.fieldLimits === 'none' ? 'none' : 'per-field',
  };
  return { paging, indexLag, design };
}

/**
 * The `--settle` a run of the row needs: `settle` where what it waits for is the description's
 * to leave unsaid (an index that lags, a cascade that completes later with no window declared),
 * else none.
 */
export function settleMsOf(row: DesignRow, settle: number): number | undefined {
  // @note Undefined, not 0: a `--settle` of 0 overrides every window the description declares.
  return row.indexLag > 0 || row.cascade === 'delayed-settle' ? settle : undefined;
}

/** Where each paging style puts its list and how the suite asks for the next page. */
const PAGING: Record<Paging, string> = {
  links: `list: { items: /items, next: /links/next }
paging: { pageSize: size, follow: true }`,
  'link-header': `list: { items: /items, next: { header: Link } }
paging: { pageSize: size, follow: true }`,
  pages: `list: { items: /results }
paging: { pageSize: per_page, page: page, totalPages: /pages }`,
  offset: `list: { items: /results }
paging: { pageSize: limit, offset: offset, totalItems: /total }`,
  cursor: `list: { items: /collections, next: /nextPageToken }
paging: { pageSize: pageSize, pageToken: pageToken }
objectList:
  list: { items: /objects, next: /nextPageToken }
  paging: { pageSize: pageSize, pageToken: pageToken }`,
};

/** Every style but next links refuses a page of more than 50 (links cut it to 50). */
const PAGE_SIZE_LIMIT: Record<Paging, string> = {
  links: '',
  'link-header': '',
  pages: '\n  pageSize: 50',
  offset: '\n  pageSize: 50',
  cursor: '\n  pageSize: 50',
};

/** Each way to search: the operation and its body (a GET takes its query in the URL). */
const SEARCH: Record<DesignRow['search'], { operation: string; body?: string }> = {
  'body-scoped': {
    operation: 'POST /api/answers/query',
    body: "{ q: '{query}', scope: '{collection_ids}' }",
  },
  body: { operation: 'POST /api/answers/query', body: "{ q: '{query}' }" },
  // @note A scope in the query string cannot be described: a path template takes {query} only.
  query: { operation: 'GET /api/answers/query?q={query}' },
};

/**
 * How a row updates a collection: one PATCH with the name and the metadata (a rename exercised
 * beside the metadata), or (`split`) the name by PATCH and the metadata by the sub-resource PUT
 * whose body is the metadata itself, in the format of an update in parts (issue 48).
 */
function updateOperation(row: DesignRow): { operation: string; body?: string } {
  if (row.updateOps === 'one')
    return {
      operation: ' PATCH /api/answers/collections/{collection_id}',
      body: "{ title: '{name}', meta: '{metadata}' }",
    };
  return {
    operation: `
    - { request: 'PATCH /api/answers/collections/{collection_id}', body: { title: '{name}' } }
    - { request: 'PUT /api/answers/collections/{collection_id}/metadata', body: '{metadata}' }`,
  };
}

/**
 * The target description a row needs, as a CI owner would write it (contracts/target.schema.json).
 * Ties have no key in the format: they are the server's alone. The update style, of metadata and
 * of an object's PATCH alike, is `updates`. A server paging by token answers its objects at
 * `/objects`, beside `/collections` for collections: `objectList` says so. A tight
 * server's string limit is its description's \`limits.string\`.
 * The index lag is not the description's either: the run is given `settleMs` (`--settle`), as
 * is a delayed cascade whose window it leaves unsaid (`delayed-settle`); `delayed-declared` says
 * `consistency.cascade` and `consistency.search` (the cascade shows in both). Per-field limits are stated only when `declared`: left `undeclared`, a
 * run must learn them and say so. A hit of the whole object is `search.hitObject`; one of its
 * content, `search.hitContent`. An update in parts replaces metadata whole: `updates.metadata`.
 */
export function descriptionText(row: DesignRow): string {
  const search = SEARCH[row.search];
  const update = updateOperation(row);
  const hit = row.hits === 'object' ? 'hitObject: /item' : 'hitContent: /item/body';
  const fieldLimits = row.fieldLimits === 'declared' ? '\n  metadataBytes: 8192\n  depth: 8' : '';
  // @note The delayed cascade shows in search as in gets (the index drops the objects with
  // them), and a window for gets (`cascade`) does not cover a search: without `search`, explore
  // told DEL-2 "the search shows #2, which it must not" on row 5, seed 2 (DEEP=full).
  const consistency =
    row.cascade === 'delayed-declared' ? '\nconsistency:\n  cascade: 1000\n  search: 1000' : '';
  return `# The independent server as ${designName(row)} (test/independent/designs.ts).
operations:
  listCollections: GET /v1/collections
  getCollection: GET /api/answers/collections/{collection_id}
  deleteCollection: DELETE /api/answers/collections/{collection_id}
  getObject: GET /api/answers/objects/{object_id}
  search: ${search.operation}
  createCollection: POST /api/answers/collections
  createObject: POST /api/answers/collections/{collection_id}/objects
  listObjects: GET /api/answers/collections/{collection_id}/objects
  updateCollection:${update.operation}
  replaceObject: PUT /api/answers/objects/{object_id}
  updateObject: PATCH /api/answers/objects/{object_id}
  deleteObject: DELETE /api/answers/objects/{object_id}
bodies:
  createCollection: { title: '{name}', meta: '{metadata}' }
  createObject: { body: '{content}' }
${update.body ? `  updateCollection: ${update.body}\n` : ''}  replaceObject: { body: '{content}' }
  updateObject: { body: '{content}' }${search.body ? `\n  search: ${search.body}` : ''}
${PAGING[row.paging]}
collection:
  in: /result
  id: /collectionId
  createdAt: /createdMs
  objectCount: /objectsTotal
  metadata: /meta
  name: /title
object:
  in: ''
  id: /objectId
  systemFields: [/collectionId, /createdMs, /changedMs, /revision]
  content: /body
search:
  hits: /hits/list
  hitObjectId: /item/objectId
  ${hit}
  limit: 50
statuses:
  gone: [${row.gone}]
  notYours: [${row.notYours}]
updates:
  metadata: ${row.updateOps === 'split' ? 'replace' : row.update}
  content: ${row.update}
limits:
  body: ${row.limits === 'tight' ? '102400\n  string: 65535' : '262144'}${PAGE_SIZE_LIMIT[row.paging]}${fieldLimits}${consistency}
`;
}

/**
 * The decisions of our openapi.yaml a row makes otherwise, as `answers-contract diff` reads them
 * (read-only: updates, cascades and limits of writes are not read). Every row shares the
 * independent server's own paths, fields, paging and search envelope, lists newest first, and
 * pages 50 at most (declared, or a page of 100 cut to 50); what differs by row is a search by
 * GET, 410 for what was deleted, and 401 for another account's collection.
 */
export function diffProfileOf(row: DesignRow): string[] {
  return [
    'GAP-COLL-FIELDS',
    'GAP-COLL-GET',
    'GAP-LIMIT-PAGE',
    'GAP-OBJ-FIELDS',
    'GAP-OBJ-PATH',
    'GAP-PAGE-FIELDS',
    'GAP-PAGE-PARAMS',
    'GAP-PATHS',
    'GAP-SEARCH-PATH',
    'GAP-SEARCH-REQ',
    'GAP-SEARCH-RESP',
    'GAP-SORT-DIRECTION',
    ...(row.search === 'query' ? ['GAP-SEARCH-METHOD'] : []),
    ...(row.gone === 410 ? ['GAP-STATES'] : []),
    ...(row.notYours === 401 ? ['GAP-ISOLATION'] : []),
  ].sort();
}
