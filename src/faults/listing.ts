/** Faults of the lists: their order, their pages, their page size and their summaries. */
import {
  objectsIn,
  rewriteEachWhen,
  rewriteWhen,
  routeOf,
  withQuery,
  type Fault,
  type JsonObject,
} from './kit.ts';

export const LISTING_FAULTS = {
  'list-order-wrong': {
    description:
      'Each page of the collection list is sorted by name (descending) instead of by creation date.',
    clauses: ['COLL-LIST-3', 'GAP-PAGE-PARAMS', 'GAP-SORT-DIRECTION'],
    wrap: () => async (request, next) =>
      rewriteWhen(await next(request), ['listCollections'], [200], (body) => ({
        ...body,
        data: objectsIn(body).sort((a, b) => {
          const [x, y] = [String(a.name), String(b.name)];
          return x < y ? 1 : x > y ? -1 : 0;
        }),
      })),
  },

  'page-skips-item': {
    description:
      'A list page with has_more: true loses its last item while keeping next_cursor, so a walk never sees it.',
    clauses: ['COLL-LIST-1', 'COLL-LIST-2', 'GAP-PAGE-PARAMS'],
    wrap: () => async (request, next) =>
      rewriteWhen(await next(request), ['listCollections', 'listObjects'], [200], (body) =>
        body.has_more === true && Array.isArray(body.data)
          ? { ...body, data: body.data.slice(0, -1) }
          : body,
      ),
  },

  'counts-wrong': {
    description: 'object_count of a non-empty collection (list and get) is one too many.',
    clauses: ['COLL-2', 'GAP-COLL-FIELDS'],
    wrap: () => async (request, next) => {
      const bump = (collection: JsonObject) =>
        typeof collection.object_count === 'number' && collection.object_count > 0
          ? { ...collection, object_count: collection.object_count + 1 }
          : collection;
      const result = await next(request);
      return rewriteEachWhen(result, 'listCollections', ['getCollection'], [200], bump);
    },
  },

  'summary-without-count': {
    description: 'The items of the collection list lack object_count (getCollection still has it).',
    clauses: ['COLL-2', 'GAP-COLL-FIELDS'],
    wrap: () => async (request, next) =>
      rewriteWhen(await next(request), ['listCollections'], [200], (body) => ({
        ...body,
        data: objectsIn(body).map(({ object_count: _count, ...rest }) => rest),
      })),
  },

  'limit-clamped': {
    description:
      'A list limit outside 1-100 or not an integer is silently replaced (clamped into 1-100, or the default 20 when not a number) and answered 200, instead of 400.',
    clauses: ['GAP-PAGE-PARAMS', 'GAP-LIMIT-PAGE'],
    wrap: () => async (request, next) => {
      const values = request.query.getAll('limit');
      const operationId = routeOf(request)?.operation.operationId ?? '';
      const listing = ['listCollections', 'listObjects'].includes(operationId);
      if (!listing || values.length === 0) return next(request);
      const parsed = Number.parseInt(values[0]!, 10);
      const limit = Number.isNaN(parsed) ? 20 : Math.min(100, Math.max(1, parsed));
      if (values.length === 1 && values[0] === String(limit)) return next(request);
      return next(withQuery(request, (query) => query.set('limit', String(limit))));
    },
  },
} as const satisfies Record<string, Fault>;
