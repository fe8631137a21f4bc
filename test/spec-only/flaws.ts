/**
 * Seeded flaws of the spec-only Answers server. Each one is off by default and
 * switched on by name through `startSpecOnlyServer({ flaws: [...] })`.
 *
 * Every flaw breaks a rule the interface document STATES (the section is cited),
 * never one of the choices this server makes where the document is silent.
 * `sequenceOnly` is true when no single request shows the flaw: it takes a change
 * of state (a delete, an update, a rename), a second account, a walk over several
 * pages, or waiting past a consistency window, and comparing answers across them.
 * It is false when one request shows the flaw as soon as the resource that request
 * touches exists (creating that resource first counts as set-up, not a sequence).
 */
export const FLAWS = {
  'inactive-key-x-header': {
    breaks: '§7 (and §5.8): an inactive key must be answered 401',
    what: 'A key sent in X-Answers-API-Key is looked up without checking that it is still active, so the inactive key reads and writes like the full key.',
    sequenceOnly: false,
  },
  'bearer-prefix-optional': {
    breaks:
      '§5.2 and §7: the Authorization form is `Bearer <API_KEY>`; a wrongly formed key header must be answered 401',
    what: 'An Authorization header that carries the bare key with no `Bearer ` scheme is accepted as if it were well formed.',
    sequenceOnly: false,
  },
  'search-unauthenticated': {
    breaks:
      '§5.1, §5.8 and §7: every request must be authenticated; a missing key header must be answered 401',
    what: 'The search route is mounted before the authentication step, so a search with no key at all is answered 200 with hits from every account.',
    sequenceOnly: false,
  },
  'readonly-can-put-metadata': {
    breaks:
      '§5.1 and §7: an account (key) lacking permission for the requested operation must be answered 401',
    what: "The permission table misses the newer PUT …/metadata route, so the read-only key replaces a collection's metadata (200) instead of being refused 401.",
    sequenceOnly: false,
  },
  'object-get-drops-system-fields': {
    breaks:
      '§2 Object and §4 Get an object: a fetched object returns its complete data including the automatic system fields',
    what: 'The object get serializes the user content and its id only, dropping _collection, _created, _updated and _rev.',
    sequenceOnly: false,
  },
  // Added by the kit's team (issue 48), not the server's writer: a hit's whole object judged as one.
  'hit-object-drops-system-fields': {
    breaks:
      "§2 Object and §4 Search: a hit's object is the object, with the automatic system fields",
    what: "Search hits carry the object's id and content but not _collection, _created, _updated and _rev.",
    sequenceOnly: false,
  },
  'list-omits-empty-metadata': {
    breaks: '§2 Collection and §4 List collections: each summary includes metadata',
    what: "A summary in the collections list leaves the metadata member out when the collection's metadata is empty.",
    sequenceOnly: false,
  },
  'count-stale-after-object-delete': {
    breaks:
      '§2 Collection and §4 List collections: a summary includes the number of objects the collection holds',
    what: "Deleting an object does not decrement the collection's stored object count, so the count in the get and the list stays one too high forever.",
    sequenceOnly: true,
  },
  'list-leaks-other-account': {
    breaks: "§4 List collections: the list returns the collections in the caller's account",
    what: "The list query drops its account filter, so one account's list also shows the other account's collections.",
    sequenceOnly: true,
  },
  'list-sorted-by-update': {
    breaks:
      '§2 Collection and §4 List collections: collections are sorted by creation date in the list',
    what: 'The list sorts (and pages) by last-modified time, so a renamed or re-described collection jumps to the end of the list.',
    sequenceOnly: true,
  },
  'last-page-dropped': {
    breaks:
      "§4 List collections: the paginated list returns (all) the collections in the caller's account",
    what: 'An off-by-one in the has-more test leaves out the next link when exactly one collection remains, so a walk by Link header never reaches the last collection.',
    sequenceOnly: true,
  },
  'cascade-never-finishes': {
    breaks:
      '§3 and §4 Delete a collection: deleting a collection permanently removes all its objects',
    what: 'The background cascade is never scheduled, so the objects of a deleted collection are still fetched (200) long after the documented 300 ms window.',
    sequenceOnly: true,
  },
  'delete-undone-by-same-name': {
    breaks:
      '§3: deleting a collection permanently removes it and all its objects, and the loss cannot be undone',
    what: "The cascade parks the objects under the collection's name instead of erasing them, and creating a new collection with that name brings them back (count, list and gets).",
    sequenceOnly: true,
  },
  'search-shows-deleted-collection': {
    breaks:
      '§3 and §4 Delete a collection: the collection and all its objects are removed permanently (search must not return them)',
    what: 'Search neither filters out deleted collections nor drops their objects from the index, so their objects keep coming back as hits forever.',
    sequenceOnly: true,
  },
  'search-stale-after-update': {
    breaks:
      "§4 Search (returns relevant objects) and §2 Object (an object's complete data): hits must reflect the object as it is once the documented lag has passed",
    what: 'The index refresh only inserts new objects and never re-indexes an updated one, so after an update search still matches the old words and returns the old content forever.',
    sequenceOnly: true,
  },
  'system-fields-lost-on-update': {
    breaks:
      '§2 Object and §4 Get an object: a fetched object returns its complete data including the automatic system fields',
    what: "Replacing an object's content rebuilds the record from the body plus _updated and _rev, so every later get lacks the _created system field.",
    sequenceOnly: true,
  },
  'object-ids-per-collection': {
    breaks: '§2 Object: each object has a unique identifier',
    what: 'Object ids come from a per-collection counter, so the first object of every collection is obj_000001 and ids repeat across collections.',
    sequenceOnly: true,
  },
  'other-account-get-allowed': {
    breaks:
      "§5.1 and §4: the key identifies the caller, whose collections are those of its own account; another account's collection must be refused (this server: 404), never served",
    what: "Get a collection looks the id up without the account filter, so the other account's key reads the collection (200) with its metadata and count.",
    sequenceOnly: true,
  },
} as const satisfies Record<string, { breaks: string; what: string; sequenceOnly: boolean }>;

export type FlawName = keyof typeof FLAWS;

export const FLAW_NAMES = Object.keys(FLAWS) as FlawName[];
