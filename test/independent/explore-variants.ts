/**
 * Seeded variants of the independent server that the fixed checks miss: each breaks a stated rule
 * only under conditions a single check does not make (concurrency, another key, past a batch
 * size, values beyond plain ASCII words and small numbers). `answers-contract explore` must find
 * each (test/contract/proofs/explore-beyond-fixed-checks.node.test.ts), and the fixed suite passes them.
 */
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

export type ExploreVariantName = (typeof EXPLORE_VARIANTS)[number]['variant'];
