import { defineCheck, destructiveHint, ensure, type CheckContext } from '../check.ts';
import { itemsOf } from '../data.ts';

/** The creation date of a summary: `created_at`, or the first date-valued field named like it. */
function creationDate(item: Record<string, unknown>): number | undefined {
  const key = 'created_at' in item ? 'created_at' : Object.keys(item).find((k) => /creat/i.test(k));
  const value = key ? Date.parse(String(item[key])) : NaN;
  return Number.isNaN(value) ? undefined : value;
}

/** Whether the dates never go back, or never go forward. */
function monotonic(dates: number[]): boolean {
  const rising = dates.every((date, i) => i === 0 || date >= dates[i - 1]!);
  const falling = dates.every((date, i) => i === 0 || date <= dates[i - 1]!);
  return rising || falling;
}

/** Makes sure there are at least `count` collections, creating them in a destructive run. */
async function atLeast(context: CheckContext, count: number): Promise<any[]> {
  let items = await context.data.walkCollections();
  if (items.length < count && context.destructive) {
    for (let i = items.length; i < count; i++) await context.data.createCollection(`page-${i}`);
    items = await context.data.walkCollections();
  }
  if (items.length < count)
    context.skip(
      `needs at least ${count} collections (found ${items.length})${destructiveHint(context)}`,
    );
  return items;
}

export const listingChecks = [
  defineCheck({
    id: 'list.summaries.profile',
    title: 'lists the collections as summaries that each carry an object count and metadata',
    clauses: ['COLL-LIST-1', 'COLL-2', 'COLL-3'],
    level: 'profile',
    async run(context) {
      const response = await context.http.request('GET', '/collections', {
        operationId: 'listCollections',
      });
      ensure(response.status === 200, `GET /collections answered ${response.status}, not 200`);
      const items = itemsOf(response.json);
      ensure(items, 'the list response holds no array of summaries');
      for (const item of items) {
        const values = Object.values(item ?? {});
        ensure(
          values.some((v) => Number.isInteger(v) && (v as number) >= 0),
          `summary ${JSON.stringify(item).slice(0, 120)} has no object count (a whole number)`,
        );
        ensure(
          values.some((v) => v !== null && typeof v === 'object' && !Array.isArray(v)),
          `summary ${JSON.stringify(item).slice(0, 120)} has no metadata object`,
        );
      }
    },
  }),
  defineCheck({
    id: 'list.order.profile',
    title: 'sorts a page of collections by creation date (in one direction)',
    clauses: ['COLL-LIST-3'],
    level: 'profile',
    async run(context) {
      if (context.destructive) await atLeast(context, 3);
      const response = await context.http.request('GET', '/collections', {
        operationId: 'listCollections',
      });
      const items = itemsOf(response.json) ?? [];
      if (items.length < 2) context.skip('needs at least 2 collections to see an order');
      const dates = items.map(creationDate);
      ensure(
        dates.every((d) => d !== undefined),
        'a summary has no creation date to order by',
      );
      ensure(
        monotonic(dates as number[]),
        `the page is not sorted by creation date: ${items.map((i: any) => i.created_at).join(', ')}`,
      );
    },
  }),
  defineCheck({
    id: 'list.order-direction',
    title: 'sorts oldest first across pages by default, and newest first with order=desc',
    clauses: ['COLL-LIST-3', 'GAP-PAGE-PARAMS', 'GAP-SORT-DIRECTION'],
    level: 'profile',
    async run(context) {
      await atLeast(context, 3);
      const asc = await context.data.walkCollections(undefined, 2);
      const dates = asc.map((c) => Date.parse(c.created_at));
      ensure(
        dates.every((d, i) => i === 0 || d >= dates[i - 1]!),
        `the default walk is not oldest first: ${asc.map((c) => c.created_at).join(', ')}`,
      );
      const desc = await context.data.walkCollections(undefined, 2, 'desc');
      ensure(
        JSON.stringify(desc.map((c) => c.id)) === JSON.stringify(asc.map((c) => c.id).reverse()),
        'order=desc is not the default order reversed',
      );
    },
  }),
  defineCheck({
    id: 'list.walk.profile',
    title: 'pages through every collection exactly once, and the walk ends',
    clauses: ['COLL-LIST-2', 'GAP-PAGE-PARAMS', 'GAP-PAGE-FIELDS'],
    level: 'profile',
    async run(context) {
      const all = await atLeast(context, 3);
      const walked = await context.data.walkCollections(undefined, 2);
      const ids = walked.map((c) => c.id);
      const repeated = ids.filter((id, i) => ids.indexOf(id) !== i);
      ensure(repeated.length === 0, `the walk repeats ${repeated.join(', ')}`);
      const missing = all.filter((c) => !ids.includes(c.id)).map((c) => c.id);
      ensure(missing.length === 0, `the walk with limit=2 skips ${missing.join(', ')}`);
      ensure(
        ids.length === all.length,
        `the walk found ${ids.length} collections, the single page ${all.length}`,
      );
    },
  }),
  defineCheck({
    id: 'list.page-size',
    title: 'honours limit and refuses a limit outside 1-100 with 400',
    clauses: ['GAP-LIMIT-PAGE', 'GAP-PAGE-PARAMS'],
    level: 'profile',
    async run(context) {
      await atLeast(context, 2);
      const one = await context.http.request('GET', '/collections?limit=1', {
        operationId: 'listCollections',
      });
      ensure(
        one.json.data.length === 1 && one.json.has_more === true,
        `limit=1 returned ${one.json.data.length} items, has_more ${one.json.has_more}`,
      );
      for (const limit of ['0', '101', '-1', 'x']) {
        const refused = await context.http.request('GET', `/collections?limit=${limit}`, {
          operationId: 'listCollections',
        });
        ensure(refused.status === 400, `limit=${limit} answered ${refused.status}, not 400`);
      }
    },
  }),
  defineCheck({
    id: 'list.counts',
    title: 'reports an object count equal to the objects the collection really holds',
    clauses: ['COLL-2', 'GAP-COLL-FIELDS'],
    level: 'profile',
    async run(context) {
      await context.data.main(context);
      const collections = (await context.data.walkCollections()).slice(0, 5);
      for (const collection of collections) {
        const objects = await context.data.walk(
          `/collections/${collection.id}/objects`,
          'listObjects',
        );
        ensure(
          collection.object_count === objects.length,
          `collection ${collection.id} reports ${collection.object_count} objects in the list but holds ${objects.length}`,
        );
        const got = await context.http.request('GET', `/collections/${collection.id}`, {
          operationId: 'getCollection',
        });
        ensure(
          got.json.object_count === objects.length,
          `collection ${collection.id} reports ${got.json.object_count} objects when fetched but holds ${objects.length}`,
        );
      }
    },
  }),
];
