import { listPage } from './list-page.ts';
import type { Handler } from './handler.ts';
import { collectionJson } from './get-collection.ts';
import { toCollection } from '../store/records.ts';

/**
 * `GET /collections`: the caller's collections, by creation date, a page at a time, each with its
 * object count and metadata.
 * @see spec §4 "List collections" (COLL-LIST-1..3, COLL-2, COLL-3, ISO-1)
 */
export const listCollections: Handler = (context) => {
  const { store } = context.state;
  return listPage(
    context,
    'collections',
    store.collectionsOf(context.accountId),
    (record) => toCollection(record, store.objectCount(record.id)),
    (record) => collectionJson(record, store.objectCount(record.id)),
  );
};
