/**
 * The deliberate defects the mock can be run with, one at a time, to prove that a contract test
 * suite can fail. Each is what a buggy real implementation would do, observable over HTTP, and
 * names the clauses of `docs/spec-gaps.md` it violates (so a suite can be judged by whether a
 * check citing one of them fails).
 *
 * @note Nothing in the default entry points imports this folder: a fault is only ever present
 * when a caller asks for it with `withFault`.
 */
export const FAULTS = {
  'auth-not-enforced': {
    description:
      'Requests with no, an unknown, a malformed or an inactive key are served as if made with the full key of account acme.',
    clauses: ['AUTH-1', 'AUTH-5', 'ERR-401-1', 'ERR-401-2', 'ERR-401-3', 'ERR-401-4'],
  },
  'forbidden-instead-of-unauthorized': {
    description: 'Every 401 is answered as 403 (status line and problem "status" field).',
    clauses: [
      'AUTH-5',
      'ERR-401-1',
      'ERR-401-2',
      'ERR-401-3',
      'ERR-401-4',
      'ERR-401-5',
      'GAP-401-VS-403',
      'GAP-ERR-STATUS',
    ],
  },
  'header-form-ignored': {
    description:
      'The X-Answers-API-Key header is ignored, so a request authenticated only by it gets 401.',
    clauses: ['AUTH-4'],
  },
  'permission-not-enforced': {
    description:
      'A valid key lacking the permission an operation needs is treated as the full key of its account.',
    clauses: ['AUTH-2', 'ERR-401-5', 'GAP-PERMISSIONS'],
  },
  'list-order-wrong': {
    description:
      'Each page of the collection list is sorted by name (descending) instead of by creation date.',
    clauses: ['COLL-LIST-3', 'GAP-PAGE-PARAMS', 'GAP-SORT-DIRECTION'],
  },
  'page-skips-item': {
    description:
      'A list page with has_more: true loses its last item while keeping next_cursor, so a walk never sees it.',
    clauses: ['COLL-LIST-1', 'COLL-LIST-2', 'GAP-PAGE-PARAMS'],
  },
  'delete-not-cascading': {
    description:
      'Deleting a collection leaves its objects behind: they stay gettable by id and show up in account-wide search.',
    clauses: ['DEL-2', 'DEL-3', 'GAP-DEL-RESP', 'GAP-STATES'],
  },
  'soft-delete': {
    description:
      'A deleted collection leaves the list, but getting it (or its objects) by id still answers 200.',
    clauses: ['DEL-1', 'DEL-3', 'GAP-STATES', 'GAP-DEL-RESP'],
  },
  'system-fields-missing': {
    description: 'Objects returned by get, list and create lack created_at and version.',
    clauses: ['OBJ-3', 'OBJ-GET-1', 'GAP-OBJ-FIELDS', 'GAP-OBJ-RESP'],
  },
  'counts-wrong': {
    description: 'object_count of a non-empty collection (list and get) is one too many.',
    clauses: ['COLL-2', 'GAP-COLL-FIELDS'],
  },
  'cross-account-leak': {
    description:
      "Getting another account's collection by id answers 200 with its data instead of 404.",
    clauses: ['ISO-1', 'AUTH-2', 'GAP-ISOLATION'],
  },
  'search-ignores-query': {
    description:
      "Search returns all of the caller's objects (oldest first, score 1) whatever the query.",
    clauses: ['SEARCH-1', 'GAP-SEARCH-MATCH', 'GAP-SEARCH-RESP'],
  },
  'wrong-content-type': {
    description: 'Successful JSON responses are labelled content-type: text/plain.',
    clauses: ['GAP-MEDIA'],
  },
  'schema-violation': {
    description: 'Collection representations carry object_count as a string (e.g. "24").',
    clauses: ['COLL-2', 'GAP-COLL-FIELDS'],
  },
  'bearer-scheme-case-sensitive': {
    description:
      'The Authorization scheme is compared case-sensitively: "bearer <key>" (lower case) gets 401 malformed_credentials.',
    clauses: ['AUTH-3', 'GAP-AUTH-FORM'],
  },
  'inactive-key-accepted': {
    description:
      'The active flag of a key is never checked: an inactive key is served like an active key of its account.',
    clauses: ['ERR-401-2', 'AUTH-5', 'GAP-LIMIT-KEY'],
  },
  'malformed-header-accepted': {
    description:
      'Authorization is read as "<any scheme> <key> ...": the scheme is not checked and extra parts are ignored, so "Basic <key>" and "Bearer <key> extra" are served as that key.',
    clauses: ['ERR-401-4', 'AUTH-5', 'GAP-AUTH-FORM'],
  },
  'conflicting-keys-first-wins': {
    description:
      'When Authorization and X-Answers-API-Key carry different keys, Authorization wins instead of 401 conflicting_api_keys.',
    clauses: ['GAP-AUTH-PRECEDENCE'],
  },
  'no-challenge': {
    description: 'Every 401 lacks its WWW-Authenticate challenge (status and problem body stay).',
    clauses: ['GAP-AUTH-CHALLENGE'],
  },
  'summary-without-count': {
    description: 'The items of the collection list lack object_count (getCollection still has it).',
    clauses: ['COLL-2', 'GAP-COLL-FIELDS'],
  },
  'limit-clamped': {
    description:
      'A list limit outside 1-100 or not an integer is silently replaced (clamped into 1-100, or the default 20 when not a number) and answered 200, instead of 400.',
    clauses: ['GAP-PAGE-PARAMS', 'GAP-LIMIT-PAGE'],
  },
  'cursor-ignored': {
    description:
      'A list cursor that cannot be used (malformed, tampered, foreign) restarts the list at its first page instead of 400 invalid_cursor.',
    clauses: ['GAP-PAGE-PARAMS'],
  },
  'collection-lookup-off-by-one': {
    description:
      "Getting a collection by id answers the caller's collection created right after it (the newest one answers 404).",
    clauses: ['COLL-GET-1', 'GAP-COLL-GET'],
  },
  'not-found-is-500': {
    description:
      'A collection or object id that names nothing visible gets 500 internal_error instead of 404 collection_not_found / object_not_found.',
    clauses: ['GAP-IDS', 'GAP-ERR-CODES', 'GAP-ERR-STATUS'],
  },
  'client-system-fields-accepted': {
    description:
      'Unknown and system fields (id, version, created_at, ...) in create bodies are dropped silently and the create answers 201, instead of 400 validation_failed.',
    clauses: ['GAP-BODY-FIELDS'],
  },
  'search-index-stale': {
    description:
      'The search index is built at start-up and never updated: objects created later are never found.',
    clauses: ['SEARCH-1', 'GAP-SEARCH-MATCH'],
  },
  'search-filter-ignored': {
    description: 'collection_ids in a search body is ignored: every search is account-wide.',
    clauses: ['GAP-SEARCH-REQ'],
  },
  'search-cross-account': {
    description:
      "Search runs over every account: the last page of a search also holds other accounts' hits.",
    clauses: ['ISO-1', 'AUTH-2', 'GAP-ISOLATION'],
  },
  'delete-twice-succeeds': {
    description:
      'Deleting a collection the caller already deleted answers 204 again instead of 404 collection_not_found.',
    clauses: ['GAP-DEL-RESP', 'GAP-STATES'],
  },
  'method-not-allowed-404': {
    description:
      'A method a path does not support gets 404 not_found without an Allow header instead of 405.',
    clauses: ['GAP-METHODS', 'GAP-ERR-STATUS'],
  },
  'malformed-json-500': {
    description:
      'A request body that is not valid JSON gets 500 internal_error instead of 400 malformed_json.',
    clauses: ['GAP-ERR-CODES', 'GAP-ERR-STATUS'],
  },
  'validation-before-auth': {
    description:
      'Parameters and bodies are validated before the key: an invalid request without a valid key gets 400 instead of 401.',
    clauses: ['GAP-ORDER-CHECK', 'AUTH-5'],
  },
  'object-nested-content-dropped': {
    description:
      'Getting an object by id answers its content without nested values: arrays and objects inside content are dropped (list and search keep them).',
    clauses: ['OBJ-GET-1', 'GAP-CONTENT', 'GAP-OBJ-RESP'],
  },
  'error-body-not-problem': {
    description:
      'Error responses keep their status and headers but are application/json { "error": "<detail>" } instead of application/problem+json with a code.',
    clauses: ['GAP-ERR-BODY', 'GAP-ERR-CODES', 'GAP-MEDIA'],
  },
} as const satisfies Record<string, { description: string; clauses: readonly string[] }>;

/** The name of one deliberate defect. */
export type FaultName = keyof typeof FAULTS;

/** Every fault name, in the order of {@link FAULTS}. */
export const FAULT_NAMES = Object.keys(FAULTS) as FaultName[];

/** Whether `name` is a fault name (for CLIs and environment variables). */
export function isFaultName(name: string): name is FaultName {
  return Object.hasOwn(FAULTS, name);
}
