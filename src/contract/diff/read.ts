/**
 * The reads of `diff`, sent to one side (the deployment, or the mock loaded with its snapshot)
 * through its target description: every page of each list at two page sizes, a get of each
 * collection and object of the plan, the searches of the plan (scoped and not), and a get of
 * another account's collection with the full key. Only reads: a diff must never change the
 * deployment. What came back is kept as evidence in the side's own ids; nothing is judged here.
 */
import { CheckFailure } from '../failure.ts';
import type { Target } from '../target-api/target.ts';
import type { Reach } from '../judges/walks.ts';
import type { Pair, Plan } from './plan.ts';

export type Side = keyof Pair;

/** A list walked whole, page by page. */
export interface ListSeen {
  request: string;
  pageSize: number;
  ids: string[];
  /** Each item's creation date (ms), where the description shows one. */
  dates: Array<number | undefined>;
  reach: Reach;
  /** How many items the first page held, and whether more pages followed. */
  first: { items: number; more: boolean };
  /** The walk broke off: a page refused, a token repeated (the walk's own words). */
  broken?: string;
}

/** A get, or a search: the request and what it answered. */
interface Answered {
  request: string;
  status: number;
}

interface GetSeen extends Answered {
  /** The collection or object the answer holds, where the description says. */
  value?: unknown;
  /** The id the answer shows, where the description says it is. */
  id?: string | undefined;
}

interface SearchSeen extends Answered {
  word: string;
  /** The collection the search was scoped to (this side's id), if scoped. */
  scope?: string;
  /** The hits' object ids in order; undefined where no list of hits is where the description says. */
  ids?: string[];
  /** Each hit's content, where it shows one. */
  contents: Array<{ content: unknown } | undefined>;
}

export interface Reading {
  collections: ListSeen[];
  /** Each planned collection's objects, walked at each page size, by this side's id. */
  objects: Map<string, ListSeen[]>;
  collectionGets: Map<string, GetSeen>;
  objectGets: Map<string, GetSeen>;
  searches: SearchSeen[];
  /** The other account's first collection, asked for with the full key. */
  notYours?: GetSeen | undefined;
  requests: number;
}

/** The two page sizes every list is walked at: the largest both may take, and a small one. */
export function pageSizes(target: Target): [number, number] {
  // @note Our document's largest page is 100; a description may state a smaller one.
  return [Math.min(100, target.description.limits.pageSize ?? 100), 7];
}

async function walkSeen(
  target: Target,
  key: string,
  pageSize: number,
  operation: 'listCollections' | 'listObjects',
  params?: Record<string, unknown>,
): Promise<ListSeen> {
  const { method, path } = target.route(operation, params);
  const sizeParameter = target.description.paging.pageSize;
  const request = `${method} ${path}${sizeParameter ? `${path.includes('?') ? '&' : '?'}${sizeParameter}=${pageSize}` : ''}, every page`;
  let first = { items: 0, more: false };
  try {
    const walk = await target.walk({
      operation,
      key,
      pageSize,
      params,
      onPage: async (page, items) => {
        if (page === 1) first = { items: items.length, more: false };
        else first.more = true;
      },
    });
    const idOf = (item: unknown) =>
      operation === 'listCollections' ? target.collectionIdOf(item) : target.objectIdOf(item);
    return {
      request,
      pageSize,
      ids: walk.items.map((item) => idOf(item) ?? '(no id)'),
      dates: walk.items.map((item) =>
        operation === 'listCollections' ? target.createdAtOf(item) : undefined,
      ),
      reach: walk.reach,
      first,
    };
  } catch (error) {
    if (!(error instanceof CheckFailure)) throw error;
    return {
      request,
      pageSize,
      ids: [],
      dates: [],
      reach: { whole: false, why: error.message },
      first,
      broken: error.message,
    };
  }
}

/** Sends `tasks` a few at a time (the client bounds requests in flight; this bounds promises). */
async function inTurn<T>(items: readonly T[], run: (item: T) => Promise<void>): Promise<void> {
  const BATCH = 64;
  for (let i = 0; i < items.length; i += BATCH)
    await Promise.all(items.slice(i, i + BATCH).map(run));
}

/** Everything `plan` asks of one side, with `keys` (the side's own). */
export async function readSide(
  target: Target,
  side: Side,
  plan: Plan,
  key: string,
  sizes: readonly number[],
  /** Whether each word is searched for within its collection too: the same on both sides. */
  scoped: boolean,
): Promise<Reading> {
  const before = target.http.sent;
  const reading: Reading = {
    collections: [],
    objects: new Map(),
    collectionGets: new Map(),
    objectGets: new Map(),
    searches: [],
    requests: 0,
  };
  for (const size of sizes)
    reading.collections.push(await walkSeen(target, key, size, 'listCollections'));
  await inTurn(plan.collections, async (collection) => {
    const id = collection[side];
    const walks: ListSeen[] = [];
    for (const size of sizes)
      walks.push(await walkSeen(target, key, size, 'listObjects', { collection_id: id }));
    reading.objects.set(id, walks);
    const got = await target.send('getCollection', { key, params: { collection_id: id } });
    const value = got.status === 200 ? target.collectionIn(got.json) : undefined;
    reading.collectionGets.set(id, {
      request: `${got.method} ${got.path}`,
      status: got.status,
      value,
      id: value === undefined ? undefined : target.collectionIdOf(value),
    });
  });
  const objects = plan.collections.flatMap((collection) =>
    collection.objects.map((object) => ({ collection: collection[side], object: object[side] })),
  );
  await inTurn(objects, async ({ collection, object }) => {
    const got = await target.send('getObject', {
      key,
      params: { collection_id: collection, object_id: object },
    });
    const value = got.status === 200 ? target.objectIn(got.json) : undefined;
    reading.objectGets.set(object, {
      request: `${got.method} ${got.path}`,
      status: got.status,
      value,
      id: value === undefined ? undefined : target.objectIdOf(value),
    });
  });
  if (target.offers('search'))
    for (const { word, scope } of plan.words) {
      const scopes = scoped ? [undefined, scope[side]] : [undefined];
      for (const within of scopes) {
        const got = await target.send('search', {
          key,
          body: { query: word, ...(within ? { collection_ids: [within] } : {}) },
        });
        const hits = got.status === 200 ? target.hitsOf(got.json) : undefined;
        reading.searches.push({
          request: `${got.method} ${got.path} for "${word}"${within ? ` within ${within}` : ''}`,
          status: got.status,
          word,
          ...(within ? { scope: within } : {}),
          ...(hits ? { ids: hits.map((hit) => target.hitObjectIdOf(hit) ?? '(no id)') } : {}),
          contents: (hits ?? []).map(
            (hit) => target.hitContentOf(hit) ?? target.contentAt(target.hitObjectOf(hit) ?? {}),
          ),
        });
      }
    }
  // @note A hit the plan does not hold (made or deleted since the snapshot, another account's)
  // is asked for too: a search must find only what a get answers.
  if (!target.objectsNeedCollection()) {
    const unknown = new Set(
      reading.searches
        .flatMap((search) => search.ids ?? [])
        .filter((id) => !reading.objectGets.has(id)),
    );
    await inTurn([...unknown], async (object) => {
      const got = await target.send('getObject', { key, params: { object_id: object } });
      reading.objectGets.set(object, { request: `${got.method} ${got.path}`, status: got.status });
    });
  }
  const other = plan.others[0];
  if (other) {
    const got = await target.send('getCollection', {
      key,
      params: { collection_id: other[side] },
    });
    reading.notYours = { request: `${got.method} ${got.path}`, status: got.status };
  }
  reading.requests = target.http.sent - before;
  return reading;
}
