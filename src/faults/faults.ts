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
} as const satisfies Record<string, { description: string; clauses: readonly string[] }>;

/** The name of one deliberate defect. */
export type FaultName = keyof typeof FAULTS;

/** Every fault name, in the order of {@link FAULTS}. */
export const FAULT_NAMES = Object.keys(FAULTS) as FaultName[];

/** Whether `name` is a fault name (for CLIs and environment variables). */
export function isFaultName(name: string): name is FaultName {
  return Object.hasOwn(FAULTS, name);
}
