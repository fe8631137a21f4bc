/**
 * Every clause of docs/spec-gaps.md with the judges that decide it, the fixed checks that meet
 * it (at every level, or at `--level profile` only), the operations explore needs to reach it,
 * or why no fixed check can prove it over HTTP. One entry for every clause (a new clause does
 * not compile until it says how it is judged); the checks and explore's coverage read their
 * clauses from here, and test/contract/judges-registry.node.test.ts holds it to the code.
 */
import type { ClauseId } from '../../generated/clauses.ts';
import type { OperationName } from '../target-api/description.ts';
import {
  challenged,
  judgedByDocument,
  methodRefused,
  oldestFirst,
  onlyMatches,
  pageSizeHonoured,
  problemCode,
  problemMedia,
  refusedAsDecided,
  refusedLeftNothing,
  reversedOnRequest,
  withinScope,
} from './document.ts';
import { refusedToDelete } from './ownership.ts';
import {
  allShown,
  foundByItsWords,
  hitShowsContent,
  hitsListed,
  listedForOneAccount,
  nothingHidden,
  refusalShowsNothing,
  sameItems,
  otherAccountRefused,
  searchAnswered,
  shownYetAbsent,
} from './reads.ts';
import { answeredAlike, answers } from './status.ts';
import {
  collectionCreated,
  contentAsWritten,
  countsAtLeast,
  fetchedAsAsked,
  metadataAsWritten,
  nameAsGiven,
  objectCount,
  objectCreated,
  oneUpdateWhole,
  refusedStoredNothing,
  refusedWriteChangedNothing,
  summaryHolds,
  systemFields,
  wordsKept,
} from './values.ts';
import {
  creationOrder,
  eachOnce,
  eachShownOnce,
  listBroken,
  livedThroughOnce,
  noneSkipped,
  pagesOfTheirKey,
  sortedByCreation,
  walkBroken,
} from './walks.ts';
import {
  declaredDecisions,
  foundAlike,
  listedAlike,
  notYoursAlike,
  pageHeldAlike,
  rankedAlike,
} from './drift.ts';

/** How one clause is judged. */
export interface Judging {
  /** The judges whose verdicts can name it. */
  judges?: ReadonlyArray<(...evidence: never[]) => unknown>;
  /** The fixed checks that meet it at every level (`spec` checks; a `profile` check's own). */
  checks?: readonly string[];
  /** The fixed checks that meet it only at `--level profile` (their stricter form). */
  profileChecks?: readonly string[];
  /** The operations a description must offer for explore to reach it. */
  explore?: readonly OperationName[];
  /** Why no fixed check proves it over HTTP. */
  noCheck?: string;
}

export const JUDGING: { readonly [C in ClauseId]: Judging } = {
  'SVC-1': {
    // @note Of the summary's words, "named collections" alone is no other clause's: a name shown
    // is the one given (a rename included).
    judges: [nameAsGiven],
    noCheck:
      'a summary of the service; its parts are proven by the collection, object and search checks, and a name shown by explore (a rename read back)',
    explore: ['createCollection', 'updateCollection', 'getCollection'],
  },
  'COLL-1': {
    judges: [collectionCreated, fetchedAsAsked, refusedToDelete],
    checks: ['collection.get'],
    explore: ['createCollection'],
  },
  'COLL-2': {
    judges: [objectCount, summaryHolds, countsAtLeast, refusedStoredNothing],
    checks: ['list.summaries'],
    explore: ['createCollection', 'getCollection'],
  },
  'COLL-3': {
    judges: [metadataAsWritten, oneUpdateWhole, summaryHolds, refusedStoredNothing],
    checks: ['list.summaries'],
    explore: ['createCollection', 'getCollection'],
  },
  'COLL-LIST-1': {
    judges: [allShown, answeredAlike, refusedStoredNothing],
    checks: ['list.summaries', 'list.walk'],
  },
  'COLL-LIST-2': {
    judges: [eachOnce, livedThroughOnce, eachShownOnce, noneSkipped, walkBroken],
    checks: ['list.walk'],
    explore: ['listCollections', 'createCollection'],
  },
  'COLL-LIST-3': {
    judges: [creationOrder, sortedByCreation],
    checks: ['list.order', 'list.order-direction'],
    explore: ['listCollections', 'createCollection'],
  },
  'COLL-GET-1': {
    judges: [answeredAlike, fetchedAsAsked],
    checks: ['collection.get'],
    explore: ['getCollection'],
  },
  'DEL-1': {
    judges: [shownYetAbsent, answeredAlike, nothingHidden],
    checks: ['delete.collection', 'delete.twice'],
    explore: ['deleteCollection'],
  },
  'DEL-2': {
    judges: [answeredAlike, nothingHidden],
    checks: ['delete.cascade'],
    explore: ['deleteCollection', 'createObject'],
  },
  'DEL-3': {
    judges: [shownYetAbsent, answeredAlike, nothingHidden],
    checks: ['delete.object', 'delete.collection', 'delete.cascade'],
    explore: ['createObject', 'deleteObject'],
  },
  'OBJ-1': {
    judges: [answeredAlike, sameItems, listBroken],
    explore: ['createObject'],
    noCheck: 'proven by the object checks, which address objects through their collection',
  },
  'OBJ-2': {
    judges: [objectCreated, fetchedAsAsked, answeredAlike],
    checks: ['object.get'],
    explore: ['createObject'],
  },
  'OBJ-3': {
    judges: [systemFields],
    checks: ['object.get', 'object.system-fields-refused'],
    explore: ['createObject', 'getObject'],
  },
  'OBJ-GET-1': {
    judges: [answeredAlike, contentAsWritten, systemFields, wordsKept, refusedStoredNothing],
    checks: ['object.get'],
    explore: ['createObject', 'getObject'],
  },
  'SEARCH-1': {
    judges: [
      searchAnswered,
      answeredAlike,
      allShown,
      nothingHidden,
      hitShowsContent,
      hitsListed,
      foundByItsWords,
    ],
    checks: ['search.finds', 'search.relevance'],
    explore: ['search'],
  },
  'AUTH-1': {
    judges: [answeredAlike, refusalShowsNothing],
    checks: ['auth.missing-key', 'order.auth-first'],
    explore: ['createCollection'],
  },
  'AUTH-2': {
    judges: [answeredAlike, nothingHidden],
    checks: ['auth.missing-permission', 'collection.isolation', 'search.isolation'],
  },
  'AUTH-3': {
    judges: [answeredAlike],
    checks: ['auth.bearer-accepted'],
    explore: ['listCollections'],
  },
  'AUTH-4': {
    judges: [answeredAlike],
    checks: ['auth.api-key-header-accepted'],
    explore: ['listCollections'],
  },
  'AUTH-5': {
    judges: [answeredAlike],
    checks: ['auth.missing-key', 'auth.malformed-header', 'auth.unknown-key', 'auth.inactive-key'],
  },
  'ERR-401-1': {
    judges: [answeredAlike],
    checks: ['auth.unknown-key'],
    explore: ['listCollections'],
  },
  'ERR-401-2': {
    judges: [answeredAlike],
    checks: ['auth.inactive-key'],
    explore: ['listCollections'],
  },
  'ERR-401-3': {
    judges: [answeredAlike],
    checks: ['auth.missing-key'],
    explore: ['listCollections'],
  },
  'ERR-401-4': {
    judges: [answeredAlike],
    checks: ['auth.malformed-header'],
    explore: ['listCollections'],
  },
  'ERR-401-5': {
    judges: [answeredAlike, refusedWriteChangedNothing],
    checks: ['auth.missing-permission'],
    explore: ['createCollection'],
  },
  'ISO-1': {
    judges: [
      otherAccountRefused,
      shownYetAbsent,
      answeredAlike,
      nothingHidden,
      listedForOneAccount,
      refusalShowsNothing,
      pagesOfTheirKey,
    ],
    checks: ['collection.isolation', 'search.isolation'],
    explore: ['listCollections'],
  },
  'REQ-1': {
    judges: [answeredAlike],
    explore: ['createCollection'],
    noCheck: 'a property of requests, not of the service: the suite sends JSON',
  },
  'VER-1': { noCheck: 'the version segment is part of --base-url, which the suite is given' },
  'VER-2': { noCheck: 'the base path is part of --base-url, which the suite is given' },
  'GAP-CONTENT': { judges: [judgedByDocument], profileChecks: ['object.get'] },
  'GAP-COLL-FIELDS': {
    judges: [declaredDecisions, judgedByDocument],
    checks: ['responses.conform'],
    profileChecks: ['list.summaries'],
    explore: ['createCollection'],
  },
  'GAP-OBJ-FIELDS': {
    judges: [declaredDecisions, judgedByDocument],
    checks: ['responses.conform'],
    profileChecks: ['object.get'],
    explore: ['createObject'],
  },
  'GAP-STATES': {
    judges: [declaredDecisions, answeredAlike],
    profileChecks: ['delete.collection'],
  },
  'GAP-PAGE-PARAMS': {
    judges: [declaredDecisions, refusedAsDecided, answeredAlike, judgedByDocument],
    checks: ['list.order-direction', 'list.page-size', 'pagination.bad-values'],
    profileChecks: ['list.walk'],
    explore: ['listCollections'],
  },
  'GAP-PAGE-FIELDS': {
    judges: [declaredDecisions, judgedByDocument],
    checks: ['responses.conform'],
    profileChecks: ['list.walk'],
    explore: ['listCollections'],
  },
  'GAP-COLL-GET': {
    judges: [declaredDecisions, judgedByDocument],
    profileChecks: ['collection.get'],
  },
  'GAP-DEL-PATH': {
    judges: [judgedByDocument],
    noCheck: 'proven by the deletion checks, which use it',
  },
  'GAP-DEL-RESP': { judges: [answeredAlike], checks: ['delete.twice'] },
  'GAP-OBJ-PATH': {
    judges: [declaredDecisions, judgedByDocument],
    noCheck: 'proven by the object checks, which use it',
  },
  'GAP-OBJ-RESP': { judges: [declaredDecisions, judgedByDocument], profileChecks: ['object.get'] },
  'GAP-SEARCH-METHOD': {
    judges: [declaredDecisions, judgedByDocument],
    noCheck: 'proven by the search checks, which use it',
  },
  'GAP-SEARCH-PATH': {
    judges: [declaredDecisions, judgedByDocument],
    noCheck: 'proven by the search checks, which use it',
  },
  'GAP-SEARCH-REQ': {
    judges: [declaredDecisions, withinScope, judgedByDocument],
    checks: ['search.filter'],
    profileChecks: ['search.finds'],
  },
  'GAP-SEARCH-RESP': {
    judges: [rankedAlike, declaredDecisions, judgedByDocument],
    checks: ['responses.conform'],
    profileChecks: ['search.finds'],
    explore: ['search'],
  },
  'GAP-WRITE-OPS': {
    judges: [judgedByDocument],
    noCheck: 'proven by the checks that create data (with --destructive)',
  },
  'GAP-AUTH-PRECEDENCE': {
    judges: [answeredAlike],
    checks: ['auth.both-headers'],
    explore: ['listCollections'],
  },
  'GAP-PERMISSIONS': { judges: [answeredAlike], profileChecks: ['auth.missing-permission'] },
  'GAP-EVENTS': {
    judges: [judgedByDocument],
    noCheck: 'the decision is that there are no events; absence cannot be observed',
  },
  'GAP-ERR-BODY': {
    judges: [problemMedia, challenged, judgedByDocument],
    checks: ['auth.challenge', 'responses.conform'],
    profileChecks: ['auth.missing-key'],
    explore: ['listCollections'],
  },
  'GAP-ERR-STATUS': {
    judges: [judgedByDocument],
    explore: ['listCollections'],
    noCheck: 'proven by the response validation of every check',
  },
  'GAP-ERR-CODES': {
    judges: [problemCode, refusedAsDecided, answeredAlike],
    checks: ['collection.unknown', 'object.unknown', 'bodies.bad'],
    explore: ['listCollections'],
  },
  'GAP-LIMIT-RATE': {
    judges: [judgedByDocument],
    noCheck: 'a rate limit cannot be probed safely against a deployment',
  },
  'GAP-LIMIT-PAGE': {
    judges: [pageHeldAlike, declaredDecisions, pageSizeHonoured, refusedAsDecided, answers],
    checks: ['list.page-size', 'pagination.bad-values'],
  },
  'GAP-LIMIT-SIZE': {
    judges: [judgedByDocument],
    noCheck: 'sending 1 MiB bodies to a deployment is not a safe default',
  },
  'GAP-LIMIT-KEY': {
    judges: [judgedByDocument],
    noCheck: 'key lifetime is not observable within one run',
  },
  'GAP-VERSIONING': {
    judges: [judgedByDocument],
    noCheck: 'a policy over versions, not a behaviour of one version',
  },
  'GAP-AUTH-FORM': { judges: [answeredAlike], profileChecks: ['auth.malformed-header'] },
  'GAP-AUTH-CHALLENGE': {
    judges: [challenged, judgedByDocument],
    checks: ['auth.challenge'],
    explore: ['listCollections'],
  },
  'GAP-MEDIA': {
    judges: [refusedAsDecided, judgedByDocument],
    checks: ['responses.conform', 'bodies.bad'],
    explore: ['listCollections'],
  },
  'GAP-LIMIT-STORE': {
    judges: [judgedByDocument],
    noCheck:
      "filling a deployment to its storage limit is not safe; the mock's own tests prove its 507",
  },
  'GAP-BODY-FIELDS': {
    judges: [refusedLeftNothing, refusedAsDecided, answeredAlike],
    checks: ['object.system-fields-refused', 'bodies.bad'],
    explore: ['createCollection'],
  },
  'GAP-IDS': {
    judges: [refusedAsDecided, answers],
    checks: ['collection.unknown', 'object.unknown', 'ids.bad-values'],
  },
  'GAP-ISOLATION': {
    judges: [notYoursAlike, declaredDecisions, nothingHidden, answeredAlike],
    profileChecks: ['collection.isolation', 'search.isolation'],
  },
  'GAP-METHODS': {
    judges: [methodRefused, answeredAlike],
    checks: ['methods.not-allowed'],
    explore: ['listCollections'],
  },
  'GAP-ORDER-CHECK': { judges: [refusedAsDecided], checks: ['order.auth-first'] },
  'GAP-SEARCH-MATCH': { judges: [foundAlike, onlyMatches], checks: ['search.relevance'] },
  'GAP-SEARCH-WORDS': {
    judges: [judgedByDocument],
    noCheck:
      "a limit of the mock, not of the contract: other implementations may accept more; the mock's own tests prove its 400",
  },
  'GAP-PATHS': {
    judges: [declaredDecisions, judgedByDocument],
    noCheck: "the suite is pointed at one prefix; the mock's own tests cover the aliases",
  },
  'GAP-401-VS-403': {
    judges: [answeredAlike],
    profileChecks: ['auth.missing-key', 'auth.missing-permission'],
  },
  'GAP-SORT-DIRECTION': {
    judges: [listedAlike, oldestFirst, reversedOnRequest],
    checks: ['list.order-direction'],
  },
};

const ENTRIES = Object.entries(JUDGING) as Array<[ClauseId, Judging]>;

/** The clauses a fixed check meets, by its id: at every level, and at `--level profile`. */
export function clausesOfCheck(id: string): { spec: ClauseId[]; profile: ClauseId[] } {
  return {
    spec: ENTRIES.filter(([, judging]) => judging.checks?.includes(id)).map(([clause]) => clause),
    profile: ENTRIES.filter(([, judging]) => judging.profileChecks?.includes(id)).map(
      ([clause]) => clause,
    ),
  };
}

/** Every clause explore judges, with the operations a description must offer to reach it. */
export const EXPLORE_CLAUSES: Partial<Record<ClauseId, readonly OperationName[]>> =
  Object.fromEntries(
    ENTRIES.flatMap(([clause, judging]) => (judging.explore ? [[clause, judging.explore]] : [])),
  );

/** Clauses no fixed check can prove over HTTP, and why. */
export const NOT_TESTABLE: Partial<Record<ClauseId, string>> = Object.fromEntries(
  ENTRIES.flatMap(([clause, judging]) => (judging.noCheck ? [[clause, judging.noCheck]] : [])),
);
