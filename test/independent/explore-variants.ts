/**
 * Seeded variants of the independent server that the fixed checks miss: each breaks a stated rule
 * only under conditions a single check does not make (concurrency, another key, past a batch
 * size, values beyond plain ASCII words and small numbers). `answers-contract explore` must find
 * each (test/contract/proofs/explore-beyond-fixed-checks.node.test.ts), and the fixed suite passes them.
 */
import type { DesignRow } from './designs.ts';

interface ExploreVariantRow {
  variant: string;
  /** The rule broken, in words, and how a real team could write the bug. */
  breaks: string;
  /** The clause id of docs/spec-gaps.md the divergence names. */
  clause: string;
}

export const EXPLORE_VARIANTS = [
  {
    variant: 'metadata-unicode-mangled',
    breaks:
      'metadata strings outside ASCII come back mangled (the body is decoded as Latin-1 before it is stored)',
    clause: 'COLL-3',
  },
  {
    variant: 'metadata-numbers-int32',
    breaks:
      'metadata numbers are stored as 32-bit integers (`value | 0`): large or fractional ones change',
    clause: 'COLL-3',
  },
  {
    variant: 'metadata-nested-flattened',
    breaks:
      'nested metadata values are stored as text (`String(value)`), so objects read back as "[object Object]"',
    clause: 'COLL-3',
  },
  {
    variant: 'count-capped',
    breaks:
      'the object count is the length of the first page of a query of 20 (`LIMIT 20`): it stops at 20',
    clause: 'COLL-2',
  },
  {
    variant: 'concurrent-count-lost',
    breaks:
      'creating an object reads the count, awaits the write of the object, then stores count + 1: concurrent creates lose increments',
    clause: 'COLL-2',
  },
  {
    variant: 'other-account-can-delete',
    breaks: 'DELETE checks that the collection exists, not whose it is: another account deletes it',
    clause: 'DEL-1',
  },
  {
    variant: 'walk-offset-token',
    breaks:
      'the next link carries the offset of the next page, not the last item seen: a collection deleted or created between two pages shifts the list, and the walk skips or repeats one',
    clause: 'COLL-LIST-2',
  },
  {
    variant: 'walk-ends-at-deleted-token',
    breaks:
      "the next link names the last item's id and the next page starts after that item, looked up by id: when it was deleted between pages, the lookup fails and the list ends there",
    clause: 'COLL-LIST-2',
  },
  {
    variant: 'page-token-carries-account',
    breaks:
      "the next link carries the whole query, the account included, and the next page trusts it: another key presenting it is shown the first key's collections",
    clause: 'ISO-1',
  },
  {
    variant: 'update-collection-count-reset',
    breaks:
      'an update builds the collection anew from the request and the stored id, so its object count starts again at 0',
    clause: 'COLL-2',
  },
  {
    variant: 'delete-object-count-stale',
    breaks: "deleting an object removes it but never lowers its collection's object count",
    clause: 'COLL-2',
  },
  {
    variant: 'replace-object-index-stale',
    breaks:
      'replacing an object stores its new content but leaves the search index as it was: it is found by its old words and not by its new ones',
    clause: 'SEARCH-1',
  },
  {
    variant: 'large-content-truncated',
    breaks:
      'text in content is stored in a column of 65,535 characters: a longer string comes back cut',
    clause: 'OBJ-GET-1',
  },
] as const satisfies readonly ExploreVariantRow[];

/**
 * Seeded variants aimed at explore's blind spots when they were written: each breaks one stated
 * rule where a random sequence has to reach far to see it (a walk across pages, metadata of many
 * keys or deep nesting, a partial update of an object, long text outside ASCII, what a search hit
 * shows, a write seen through one operation and not another, an id freed by a delete, a
 * collection of more objects than a batch). Rows of the same shape as EXPLORE_VARIANTS, kept
 * apart so that the deep test of those stays as it is: what explore finds of these, and what it
 * does not yet, is test/contract/proofs/explore-blind-spots.node.test.ts.
 */
export const BLIND_SPOT_VARIANTS = [
  {
    variant: 'list-later-pages-count-zero',
    breaks:
      'pages of the list after the first are served by the query of the next link, written without the join on the objects: every summary there says 0 objects (page 1 and a get are right)',
    clause: 'COLL-2',
  },
  {
    variant: 'list-metadata-as-created',
    breaks:
      'the list reads its summaries from a table written when the collection was made: after an update of its metadata, a get shows the new metadata and the list the old',
    clause: 'COLL-3',
  },
  {
    variant: 'metadata-first-4-keys',
    breaks:
      'metadata is stored in four key/value slots (meta_key_1 … meta_key_4): keys past the fourth are dropped without a word',
    clause: 'COLL-3',
  },
  {
    variant: 'metadata-nested-depth-2',
    breaks:
      'metadata is kept in a document store that indexes two levels of nesting: an object nested deeper comes back as its JSON text',
    clause: 'COLL-3',
  },
  {
    variant: 'patch-object-system-fields-lost',
    breaks:
      'a PATCH of an object writes the document back as { objectId, body, changedMs }: from then on a get of it has lost its collectionId, createdMs and revision',
    clause: 'OBJ-GET-1',
  },
  {
    variant: 'patch-object-index-stale',
    breaks:
      'a PATCH of an object stores the merged content but leaves the search index as it was: the words it brought are not found (a PUT is right)',
    clause: 'SEARCH-1',
  },
  {
    variant: 'long-text-latin1',
    breaks:
      'strings of content longer than 1,000 characters go to a long-text table whose column is Latin-1: every character outside Latin-1 comes back as "?"',
    clause: 'OBJ-GET-1',
  },
  {
    variant: 'long-text-surrogate-split',
    breaks:
      'strings of content longer than 1,000 characters are written in chunks of 1,000 UTF-16 code units, each encoded to UTF-8 on its own: a character outside the BMP cut at a chunk edge comes back as two U+FFFD',
    clause: 'OBJ-GET-1',
  },
  {
    variant: 'search-hit-stale-content',
    breaks:
      "the search index keeps the document it was first given and a hit shows it: after a PUT or PATCH the object is found by its new words (the id is right), but the hit's content is the first one",
    clause: 'SEARCH-1',
  },
  {
    variant: 'deleted-object-still-listed',
    breaks:
      "an object's delete removes it (a get says 410, the count drops) but not from the per-collection document the object list reads: it is still listed, what was deleted back in sight",
    clause: 'DEL-3',
  },
  {
    variant: 'scoped-search-finds-deleted-collection',
    breaks:
      "a collection's delete drops its objects from the search index but not from the collection's shard that a scoped search reads: a search scoped to it still finds them (get: 410; an unscoped search: none)",
    clause: 'DEL-2',
  },
  {
    variant: 'object-id-reused',
    breaks:
      'a new object takes one more than the largest id held (a table without AUTOINCREMENT): once the newest object is deleted its id is handed out again, and the old reference fetches the new object',
    clause: 'OBJ-2',
  },
  {
    variant: 'cascade-batch-25',
    breaks:
      "deleting a collection deletes its objects in one batch of 25 (LIMIT 25) and never runs the next: past 25, the collection's objects outlive it, fetchable by id and found by search",
    clause: 'DEL-2',
  },
  {
    variant: 'metadata-keys-written-apart',
    breaks:
      'an update writes each metadata key by its own statement, with an await between: updates of one collection sent at once interleave, and a get shows keys of different updates mixed, which no serial order leaves',
    clause: 'COLL-3',
  },
  {
    variant: 'scoped-search-first-25',
    breaks:
      "a scoped search loads each scoped collection's objects as one page of 25 (oldest first) and searches those only: in a collection of more than 25 objects, the newer ones are never found when scoped",
    clause: 'SEARCH-1',
  },
] as const satisfies readonly ExploreVariantRow[];

/**
 * Seeded variants of issue 48's designs: each breaks the rule of one new design switch, on a
 * server made that way (`design`: the choices it differs by from DESIGN_VARIANT_BASE, a row of
 * designs.ts) and described as designs.ts's `descriptionText` describes it. `needs`: what the kit
 * must judge before explore can find it, when it cannot yet (none today). Proven by
 * test/contract/proofs/explore-beyond-fixed-checks.node.test.ts.
 */
export const DESIGN_VARIANTS = [
  {
    variant: 'link-walk-skips-after-delete',
    breaks:
      "the `Link` header's next URL carries an offset, not the place after the last item seen: a collection deleted on an earlier page while a walk is under way makes the walk skip one that still exists",
    clause: 'COLL-LIST-2',
    design: { paging: 'link-header' },
  },
  {
    variant: 'refusal-half-applies',
    // @note Undeclared: explore keeps within declared limits, so only an undeclared one is met.
    breaks:
      'a metadata update past the per-field limits (8 KiB, 8 levels) is answered 400, yet the metadata is stored',
    clause: 'COLL-3',
    design: { fieldLimits: 'undeclared' },
  },
  {
    variant: 'cascade-never-completes',
    breaks:
      "a collection's delete marks its objects for a cascade job that never runs: they stay answered by a get (and found by search) for ever",
    clause: 'DEL-2',
    design: { cascade: 'delayed-declared' },
  },
  {
    variant: 'rename-not-in-summaries',
    breaks:
      'the list reads its titles from a table written when the collection was made: after a rename a get shows the new title, the list the old',
    clause: 'SVC-1',
    design: { updateOps: 'one' },
  },
  {
    variant: 'hit-object-differs',
    breaks:
      "a hit holds the whole object as the index was first given it: after a PUT or PATCH its content, changedMs and revision differ from a get's",
    clause: 'SEARCH-1',
    design: { hits: 'object' },
  },
] as const satisfies ReadonlyArray<
  ExploreVariantRow & { design: Partial<DesignRow>; needs?: string }
>;

export type ExploreVariantName =
  | (typeof EXPLORE_VARIANTS)[number]['variant']
  | (typeof BLIND_SPOT_VARIANTS)[number]['variant']
  | (typeof DESIGN_VARIANTS)[number]['variant'];
