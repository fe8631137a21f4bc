/**
 * The seeded variants of the independent server: each breaks exactly one rule the spec states
 * (../shared/spec/answers-service-spec.md), and names the spec-level check of answers-contract
 * that must catch it. docs/independent-server.md lists the same rows; a test keeps them equal.
 */

import type { ExploreVariantName } from './explore-variants.ts';

interface VariantRow {
  /** The name `startIndependentServer({ variant })` takes. */
  variant: string;
  /** The rule broken, in words. */
  breaks: string;
  /** Where the spec states the rule. */
  clause: string;
  /** The spec-level check id that must fail. */
  caughtBy: string;
  /**
   * `false`: the run is not destructive. Only `bearer-refused`: the suite sends its own requests
   * as `Authorization: Bearer`, so a destructive run stops in the preflight (see the docs).
   */
  destructive?: false;
  /** Other checks that rightly fail too, as a consequence of the same broken rule. */
  alsoFails?: readonly string[];
}

export const VARIANTS = [
  {
    variant: 'bearer-refused',
    breaks: 'a valid key sent as `Authorization: Bearer <key>` gets 401',
    clause: '§5.2 two header forms are stated: `Authorization: Bearer <API_KEY>`',
    caughtBy: 'auth.bearer-accepted',
  },
  {
    variant: 'api-key-header-refused',
    breaks: 'a valid key sent as `X-Answers-API-Key` gets 401',
    clause: '§5.2 two header forms are stated: `X-Answers-API-Key: <API_KEY>`',
    caughtBy: 'auth.api-key-header-accepted',
  },
  {
    variant: 'missing-key-200',
    breaks: 'a request without a key is served as the first account',
    clause: '§5.1, §7: a missing key header gets 401',
    caughtBy: 'auth.missing-key',
  },
  {
    variant: 'missing-key-403',
    breaks: 'a request without a key gets 403, not 401',
    clause: '§5.8, §7: a missing key header gets 401',
    caughtBy: 'auth.missing-key',
  },
  {
    variant: 'malformed-header-accepted',
    breaks: 'any scheme is accepted: `Authorization: Basic <key>` is served',
    clause: '§7: a wrongly formed key header gets 401',
    caughtBy: 'auth.malformed-header',
  },
  {
    variant: 'unknown-key-accepted',
    breaks: 'a key the service never issued is served as the first account',
    clause: '§7: an invalid key gets 401',
    caughtBy: 'auth.unknown-key',
  },
  {
    variant: 'inactive-key-accepted',
    breaks: 'an inactive key is served',
    clause: '§7: an inactive key gets 401',
    caughtBy: 'auth.inactive-key',
  },
  {
    variant: 'inactive-key-accepted-in-x-header',
    breaks: 'an inactive key is refused as Bearer but served as `X-Answers-API-Key`',
    clause: '§7: an inactive key gets 401 (in either stated form, §5.2)',
    caughtBy: 'auth.inactive-key',
  },
  {
    variant: 'readonly-can-write',
    breaks: 'a read-only key can create and delete',
    clause: '§7: an account that lacks permission for the operation gets 401',
    caughtBy: 'auth.missing-permission',
  },
  {
    variant: 'list-unordered',
    breaks: 'the list is sorted by object count (fewest first), not by creation date',
    clause: '§2, §4: collections are sorted by creation date in the list operation',
    caughtBy: 'list.order',
  },
  {
    variant: 'count-wrong',
    breaks: 'the object count of a collection stays 0 when objects are added',
    clause: '§2, §4: a summary includes the number of objects the collection holds',
    caughtBy: 'list.summaries',
  },
  {
    variant: 'metadata-missing',
    breaks: 'list summaries leave the metadata out (a get still has it)',
    clause: '§2, §4: each summary includes metadata',
    caughtBy: 'list.summaries',
  },
  {
    variant: 'walk-repeats',
    breaks: 'every next-page link starts one item early: page 2 repeats the last item of page 1',
    clause: '§4: the list returns paginated summaries of the collections',
    caughtBy: 'list.walk',
  },
  {
    variant: 'walk-skips',
    breaks: 'every next-page link starts one item late: an item between pages is never listed',
    clause: '§4: the list returns paginated summaries of the collections',
    caughtBy: 'list.walk',
    alsoFails: ['list.order'],
  },
  {
    variant: 'foreign-next-link',
    breaks:
      'next-page links name another host (its public name, another environment): a client that follows them hands its key to that host',
    clause: '§5.1: the key identifies the caller to the service (it is for no other host)',
    caughtBy: 'list.walk',
    alsoFails: [
      'auth.missing-permission',
      'list.summaries',
      'list.order',
      'collection.get',
      'collection.isolation',
      'delete.collection',
    ],
  },
  {
    variant: 'get-ignores-id',
    breaks: "a get returns the account's newest collection, whatever the identifier",
    clause: '§1, §4: collections are fetched by identifier',
    caughtBy: 'collection.get',
    // The get before its delete shows another collection: the check refuses to delete it.
    alsoFails: ['delete.collection'],
  },
  {
    variant: 'other-account-collection-readable',
    breaks: "a get by identifier serves another account's collection",
    clause: "§4: the caller's account; §5.1: the key identifies the caller",
    caughtBy: 'collection.isolation',
  },
  {
    variant: 'list-shows-other-account',
    breaks: "the list shows every account's collections",
    clause: "§4: the list returns summaries of the collections in the caller's account",
    caughtBy: 'collection.isolation',
    alsoFails: ['collection.get'],
  },
  {
    variant: 'object-other-account',
    breaks: "a get of an object serves another account's object",
    clause: '§5.1: the key identifies the caller and its permissions',
    caughtBy: 'collection.isolation',
  },
  {
    variant: 'system-fields-missing',
    breaks: 'a fetched object comes without its system fields',
    clause: '§2, §4: a fetched object returns its complete data including the system fields',
    caughtBy: 'object.get',
  },
  {
    variant: 'object-content-dropped',
    breaks: 'a fetched object comes without its user content',
    clause: '§2, §4: a fetched object returns its complete data',
    caughtBy: 'object.get',
  },
  {
    variant: 'search-finds-nothing',
    breaks: 'search answers 200 with no hits, whatever the objects hold',
    clause: '§1, §4: a search returns relevant objects',
    caughtBy: 'search.finds',
  },
  {
    variant: 'search-leaks-accounts',
    breaks: "search returns another account's objects",
    clause: '§5.1: the key identifies the caller and its permissions',
    caughtBy: 'search.isolation',
  },
  {
    variant: 'soft-delete',
    breaks: 'a deleted collection is hidden from the list but still fetchable (200)',
    clause: '§3, §4: deleting a collection removes it permanently',
    caughtBy: 'delete.collection',
  },
  {
    variant: 'deleted-still-listed',
    breaks: 'a deleted collection answers 410 but is still listed',
    clause: '§3, §4: deleting a collection removes it permanently',
    caughtBy: 'delete.collection',
  },
  {
    variant: 'stale-cache-after-delete',
    breaks: 'a response cache keeps answering 200 for a URL read before the delete',
    clause: '§3: the loss cannot be undone; the collection is removed permanently',
    caughtBy: 'delete.collection',
    // The object read before its delete is served from the cache too (DEL-3).
    alsoFails: ['delete.cascade', 'delete.object'],
  },
  {
    variant: 'trash-bin',
    breaks:
      'a delete moves the collection to a trash bin: unknown by id (404, also to a second delete), but still listed',
    clause: '§3, §4: deleting a collection removes it permanently',
    caughtBy: 'delete.collection',
  },
  {
    variant: 'no-cascade',
    breaks: 'deleting a collection leaves its objects fetchable and searchable',
    clause: '§3, §4: deleting a collection removes all its objects',
    caughtBy: 'delete.cascade',
  },
  {
    variant: 'cascade-unindexed-only',
    breaks:
      'deleting a collection takes its objects out of the search index only: they are no longer found, but still fetchable by id',
    clause: '§3, §4: deleting a collection removes all its objects',
    caughtBy: 'delete.cascade',
  },
  {
    variant: 'search-finds-deleted',
    breaks: 'objects of a deleted collection answer 410 but are still found by search',
    clause: '§3, §4: deleting a collection removes all its objects',
    caughtBy: 'delete.cascade',
  },
] as const satisfies readonly VariantRow[];

export type VariantName = (typeof VARIANTS)[number]['variant'] | ExploreVariantName;
