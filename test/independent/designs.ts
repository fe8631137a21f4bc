/**
 * A matrix of correct designs (issue 35): every decision the spec leaves open that the
 * independent server makes more than one correct way, and a pairwise covering set of them. Each
 * row is a server (`startIndependentServer({ paging, indexLag, design })`) and the target
 * description it needs; none of them breaks a stated rule, so the fixed suite and explore must
 * find nothing in any.
 *
 * The covering set: the four switches of more than two choices are paging (5) × search (3) ×
 * ties (3) × update (3). Rows 1-9 are the orthogonal array L9(3^4) over the first three choices of
 * paging and the three of the others (search = b, ties = b + a, update = b + 2a, mod 3), which
 * holds every pair of those once; rows 10-12 pair the fourth paging style (`cursor`) with each
 * choice of search, ties and update, rows 13-15 the fifth (`link-header`, issue 48: a next page
 * the description reads from an RFC 8288 `Link` header). The four switches of two choices were
 * then set row by row (a search for an assignment, kept here as data) so that each pairs with
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
}

// prettier-ignore
export const DESIGNS: readonly DesignRow[] = [
  { paging: 'links',  search: 'body-scoped', ties: 'sequence', update: 'merge',       notYours: 401, gone: 404, limits: 'roomy', indexLag: 0 },
  { paging: 'links',  search: 'body',        ties: 'never',    update: 'replace',     notYours: 404, gone: 410, limits: 'tight', indexLag: 2 },
  { paging: 'links',  search: 'query',       ties: 'id',       update: 'merge-patch', notYours: 404, gone: 410, limits: 'roomy', indexLag: 2 },
  { paging: 'pages',  search: 'body-scoped', ties: 'never',    update: 'merge-patch', notYours: 404, gone: 404, limits: 'tight', indexLag: 0 },
  { paging: 'pages',  search: 'body',        ties: 'id',       update: 'merge',       notYours: 401, gone: 404, limits: 'tight', indexLag: 2 },
  { paging: 'pages',  search: 'query',       ties: 'sequence', update: 'replace',     notYours: 404, gone: 410, limits: 'roomy', indexLag: 0 },
  { paging: 'offset', search: 'body-scoped', ties: 'id',       update: 'replace',     notYours: 404, gone: 410, limits: 'roomy', indexLag: 2 },
  { paging: 'offset', search: 'body',        ties: 'sequence', update: 'merge-patch', notYours: 401, gone: 410, limits: 'tight', indexLag: 0 },
  { paging: 'offset', search: 'query',       ties: 'never',    update: 'merge',       notYours: 401, gone: 404, limits: 'roomy', indexLag: 0 },
  { paging: 'cursor', search: 'body-scoped', ties: 'sequence', update: 'replace',     notYours: 401, gone: 404, limits: 'roomy', indexLag: 2 },
  { paging: 'cursor', search: 'body',        ties: 'never',    update: 'merge-patch', notYours: 404, gone: 410, limits: 'roomy', indexLag: 2 },
  { paging: 'cursor', search: 'query',       ties: 'id',       update: 'merge',       notYours: 404, gone: 410, limits: 'tight', indexLag: 0 },
  { paging: 'link-header', search: 'body-scoped', ties: 'never', update: 'merge-patch', notYours: 401, gone: 404, limits: 'roomy', indexLag: 2 },
  { paging: 'link-header', search: 'body',     ties: 'id',       update: 'merge',       notYours: 404, gone: 410, limits: 'tight', indexLag: 0 },
  { paging: 'link-header', search: 'query',    ties: 'sequence', update: 'replace',     notYours: 401, gone: 410, limits: 'roomy', indexLag: 2 },
];

/** A row's name for test titles: its choices, in the order of SWITCHES. */
export function designName(row: DesignRow): string {
  return (Object.keys(SWITCHES) as SwitchName[]).map((name) => `${name}=${row[name]}`).join(' ');
}

/** The server options of a row. */
export function serverOptions(row: DesignRow) {
  const { paging, indexLag, search, ties, update, notYours, gone, limits } = row;
  return { paging, indexLag, design: { search, ties, update, notYours, gone, limits } };
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
 * The target description a row needs, as a CI owner would write it (contracts/target.schema.json).
 * Ties have no key in the format: they are the server's alone. The update style, of metadata and
 * of an object's PATCH alike, is `updates`. A server paging by token answers its objects at
 * `/objects`, beside `/collections` for collections: `objectList` says so. A tight
 * server's string limit is its description's \`limits.string\`.
 * The index lag is not the description's either: the run is given `settleMs` (`--settle`).
 */
export function descriptionText(row: DesignRow): string {
  const search = SEARCH[row.search];
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
  updateCollection: PATCH /api/answers/collections/{collection_id}
  replaceObject: PUT /api/answers/objects/{object_id}
  updateObject: PATCH /api/answers/objects/{object_id}
  deleteObject: DELETE /api/answers/objects/{object_id}
bodies:
  createCollection: { title: '{name}', meta: '{metadata}' }
  createObject: { body: '{content}' }
  updateCollection: { meta: '{metadata}' }
  replaceObject: { body: '{content}' }
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
  hitContent: /item/body
  limit: 50
statuses:
  gone: [${row.gone}]
  notYours: [${row.notYours}]
updates:
  metadata: ${row.update}
  content: ${row.update}
limits:
  body: ${row.limits === 'tight' ? '102400\n  string: 65535' : '262144'}${PAGE_SIZE_LIMIT[row.paging]}
`;
}
