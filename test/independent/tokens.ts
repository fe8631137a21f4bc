/**
 * The next-link tokens of the independent server's list. The correct one names the last item
 * seen by its place in the order (creation date, then sequence), so a walk sees every item once
 * whatever is created or deleted between pages. Three seeded variants token it the ways real
 * teams do and get wrong: an offset, the last item's id, the whole query with its account.
 */
import type { CollectionRecord } from './store.ts';
import type { VariantName } from './variants.ts';

/** Where the next page starts, as a token says it. */
export type After =
  | { kind: 'place'; createdMs: number; seq: number; account?: string }
  /** A place whose ties are broken by id (a server whose `ties` design is `id`). */
  | { kind: 'placeById'; createdMs: number; collectionId: string }
  | { kind: 'offset'; offset: number }
  | { kind: 'id'; collectionId: string };

const encode = (text: string) => Buffer.from(text).toString('base64url');

/** The token of the next page, which starts after `last` (at `offset` in the list). */
export function tokenOf(
  last: CollectionRecord,
  offset: number,
  variant: VariantName | undefined,
  tiesById = false,
): string {
  if (tiesById) return encode(`${last.createdMs}~${last.collectionId}`);
  // @note `link-walk-skips-after-delete` is the same bug behind a `Link` header (issue 48).
  if (variant === 'walk-offset-token' || variant === 'link-walk-skips-after-delete')
    return encode(`@${offset}`);
  if (variant === 'walk-ends-at-deleted-token') return encode(`#${last.collectionId}`);
  if (variant === 'page-token-carries-account')
    return encode(`${last.account}:${last.createdMs}.${last.seq}`);
  return encode(`${last.createdMs}.${last.seq}`);
}

/** What a token stands for, or undefined when it is not one of ours. */
export function readToken(token: string): After | undefined {
  const text = Buffer.from(token, 'base64url').toString();
  const offset = /^@(\d{1,9})$/.exec(text);
  if (offset) return { kind: 'offset', offset: Number(offset[1]) };
  const id = /^#([0-9a-f-]{36})$/.exec(text);
  if (id) return { kind: 'id', collectionId: id[1]! };
  const byId = /^(\d{1,16})~([0-9a-f-]{36})$/.exec(text);
  if (byId) return { kind: 'placeById', createdMs: Number(byId[1]), collectionId: byId[2]! };
  const place = /^(?:([A-Z]):)?(\d{1,16})\.(\d{1,12})$/.exec(text);
  if (!place) return undefined;
  return {
    kind: 'place',
    createdMs: Number(place[2]),
    seq: Number(place[3]),
    ...(place[1] ? { account: place[1] } : {}),
  };
}

/** The token of a page of a collection's objects: the page starts below the id the last one ended at. */
export const objectTokenOf = (below: number): string => encode(`o${below}`);

/** The id a page of objects starts below, or undefined when the token is not one of ours. */
export function readObjectToken(token: string): number | undefined {
  const below = /^o(\d{1,15})$/.exec(Buffer.from(token, 'base64url').toString());
  return below ? Number(below[1]) : undefined;
}
