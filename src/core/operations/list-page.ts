import type { MockResponse } from '../http.ts';
import type { Keyed } from '../primitives/creation-order.ts';
import { keysetPage } from '../primitives/keyset-page.ts';
import type { OperationContext } from './handler.ts';
import { problem } from '../problem.ts';

/**
 * Answers a list operation with one page of `items` (ascending by creation date), honouring the
 * `limit`, `order` and `cursor` query parameters. `representJson`, when given, is the JSON text
 * of `represent(item)`, for items whose text is kept between reads.
 * @see spec §4 (COLL-LIST-2, COLL-LIST-3); docs/spec-gaps.md GAP-PAGE-PARAMS, GAP-PAGE-FIELDS
 */
export function listPage<T extends Keyed>(
  context: OperationContext,
  scope: string,
  items: readonly T[],
  represent: (item: T) => unknown,
  representJson: (item: T) => string = (item) => JSON.stringify(represent(item)),
): MockResponse {
  const limit = context.query.limit as number;
  const order = context.query.order as 'asc' | 'desc';
  const cursor = context.query.cursor as string | undefined;
  // @note The order is part of the scope: a cursor of an ascending walk cannot continue a descending one.
  const fullScope = `${scope}:${context.accountId}:${order}`;
  let after;
  if (cursor !== undefined) {
    after = context.state.cursors.decodeKeyset(fullScope, cursor);
    if (!after) {
      return problem(
        'invalid_cursor',
        'The cursor is not one this list returned; start again without a cursor.',
        {
          errors: [
            { location: 'query', pointer: 'cursor', message: 'is not a cursor of this list' },
          ],
        },
      );
    }
  }
  const { page, hasMore } = keysetPage(items, { limit, order, after });
  const last = page.at(-1);
  const nextCursor = hasMore && last ? context.state.cursors.encodeKeyset(fullScope, last) : null;
  // @note The same bytes as `JSON.stringify({ data, has_more, next_cursor })`, from the items'
  // own JSON texts.
  return {
    status: 200,
    headers: { 'content-type': 'application/json' },
    body: `{"data":[${page.map(representJson).join(',')}],"has_more":${hasMore},"next_cursor":${JSON.stringify(nextCursor)}}`,
  };
}
