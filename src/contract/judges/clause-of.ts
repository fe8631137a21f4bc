/**
 * Which clause a request or a sighting puts to the test, from what a correct target must now
 * show of the resource (the expectations model's state): one rule for the fixed checks, explore
 * and replay, so that a deleted object still found is the same broken clause everywhere.
 */
import type { ClauseId } from '../../generated/clauses.ts';
import type { ReadKind } from '../settle.ts';
import type { OperationName } from '../target-api/description.ts';

/** A key the run was given: each request presents one. */
export type KeyName = 'full' | 'readonly' | 'otherAccount' | 'inactive';

/** Whose data a key sees: the other account's key sees the other account's. */
export const accountOf = (key: KeyName) => (key === 'otherAccount' ? 'other' : 'own');

/** What a correct target must now show of a collection, as the clause judges need it. */
export interface CollectionState {
  readonly key: KeyName;
  readonly deleted: boolean;
}

/** What a correct target must now show of an object. */
export interface ObjectState extends CollectionState {
  readonly collection: CollectionState;
}

const isObject = (state: CollectionState | ObjectState): state is ObjectState =>
  'collection' in state;

/**
 * The clause a request's credentials put to the test when a correct target refuses them (401):
 * none, an unknown key, an inactive one, a wrongly formed header, a key without the permission,
 * two different keys at once (our document's decision).
 */
export const CREDENTIAL_CLAUSE = {
  none: 'ERR-401-3',
  unknown: 'ERR-401-1',
  inactive: 'ERR-401-2',
  malformed: 'ERR-401-4',
  readonly: 'ERR-401-5',
  twoKeys: 'GAP-AUTH-PRECEDENCE',
} as const satisfies Record<string, ClauseId>;

/** The clause a key in each stated header form puts to the test when it is accepted. */
export const ACCEPTED_FORM_CLAUSE = {
  bearer: 'AUTH-3',
  apiKeyHeader: 'AUTH-4',
} as const satisfies Record<string, ClauseId>;

/**
 * The clause a request is judged by for `key`: an inactive key's refusal is ERR-401-2, a
 * read-only key's write ERR-401-5 (a key without permission), whatever the operation's own.
 */
export function keyClause(key: KeyName | null, writes: boolean, clause: ClauseId): ClauseId {
  if (key === 'inactive') return CREDENTIAL_CLAUSE.inactive;
  if (key === 'readonly' && writes) return CREDENTIAL_CLAUSE.readonly;
  return clause;
}

/**
 * The clause a request sent with no key (ERR-401-3) or with one the run was not given
 * (ERR-401-1) puts to the test.
 */
export function roleClause(role: 'none' | 'unknown'): ClauseId {
  return CREDENTIAL_CLAUSE[role];
}

/**
 * The clause a request on a resource puts to the test: a deleted collection's (DEL-1), an
 * object of a deleted collection (DEL-2), a deleted object (DEL-3), else the operation's own
 * `live` clause; the key's own clause first (keyClause).
 */
export function requestClause(
  state: CollectionState | ObjectState,
  key: KeyName | null,
  writes: boolean,
  live: ClauseId,
): ClauseId {
  return keyClause(key, writes, deletedClause(state) ?? live);
}

function deletedClause(state: CollectionState | ObjectState): ClauseId | undefined {
  if (isObject(state)) {
    if (state.collection.deleted) return 'DEL-2';
    return state.deleted ? 'DEL-3' : undefined;
  }
  return state.deleted ? 'DEL-1' : undefined;
}

/**
 * The clause broken when a read by `key` shows a resource it must not: another account's
 * (ISO-1), a deleted one (DEL-1, DEL-2, DEL-3 as requestClause), else `otherwise` (a search
 * hit without the word or outside the scope: SEARCH-1; an object listed in another collection:
 * OBJ-1).
 */
export function shownClause(
  state: CollectionState | ObjectState,
  key: KeyName | null,
  otherwise: ClauseId,
): ClauseId {
  if (key !== null && accountOf(state.key) !== accountOf(key)) return 'ISO-1';
  return deletedClause(state) ?? otherwise;
}

/**
 * Whether a resource is there for `key` to see: its account's, and nothing of it deleted (with
 * no key known, nothing of it deleted).
 */
export function visibleTo(state: CollectionState | ObjectState, key: KeyName | null): boolean {
  return (
    (key === null || accountOf(state.key) === accountOf(key)) && deletedClause(state) === undefined
  );
}

/**
 * The clause each operation's answer puts to the test while what it names lives (one entry for
 * every operation of openapi.yaml: a new one does not compile until it names its clause).
 */
export const OPERATION_CLAUSE: { readonly [O in OperationName]: ClauseId } = {
  listCollections: 'COLL-LIST-1',
  getCollection: 'COLL-GET-1',
  createCollection: 'COLL-1',
  updateCollection: 'COLL-3',
  deleteCollection: 'DEL-1',
  listObjects: 'OBJ-1',
  createObject: 'OBJ-1',
  getObject: 'OBJ-GET-1',
  replaceObject: 'OBJ-2',
  updateObject: 'OBJ-2',
  deleteObject: 'OBJ-2',
  search: 'SEARCH-1',
};

/**
 * The clause each odd request of explore's (a request a well-behaved client never makes) is
 * judged by; the last five only at `--level profile`, where our document decides them.
 */
export const ODD_REQUEST_CLAUSE = {
  unknownId: 'COLL-GET-1',
  malformedJson: 'REQ-1',
  xApiKey: ACCEPTED_FORM_CLAUSE.apiKeyHeader,
  lowercaseBearer: ACCEPTED_FORM_CLAUSE.bearer,
  basicScheme: CREDENTIAL_CLAUSE.malformed,
  bearerExtra: CREDENTIAL_CLAUSE.malformed,
  noKey: CREDENTIAL_CLAUSE.none,
  invalidKey: CREDENTIAL_CLAUSE.unknown,
  badBodyNoKey: 'AUTH-1',
  wrongMethod: 'GAP-METHODS',
  conflictingKeys: CREDENTIAL_CLAUSE.twoKeys,
  badPageSize: 'GAP-PAGE-PARAMS',
  tamperedToken: 'GAP-PAGE-PARAMS',
  unknownField: 'GAP-BODY-FIELDS',
} as const satisfies Record<string, ClauseId>;

/** The clause an identifier's use to fetch its resource puts to the test. */
export const IDENTIFIED_BY = {
  collection: 'COLL-GET-1',
  object: 'OBJ-2',
} as const satisfies Record<string, ClauseId>;

/**
 * The kind of read a clause is broken by when a write shows there late: a delete still answered
 * by a get (a cascade completing later), a search not yet showing a write, a list or a count not
 * yet showing one. A story of such a clause names the window a description may state.
 */
export const SHOWN_LATE_IN: Partial<Record<ClauseId, ReadKind>> = {
  'DEL-1': 'cascade',
  'DEL-2': 'cascade',
  'DEL-3': 'cascade',
  'SEARCH-1': 'search',
  'COLL-LIST-1': 'lists',
  'COLL-LIST-2': 'lists',
  'COLL-2': 'lists',
  'OBJ-1': 'lists',
};
