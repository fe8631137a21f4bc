import { defineCheck, destructiveHint, ensure, type CheckContext } from '../check.ts';
import type { CreatedCollection } from '../target-api/run-data.ts';
import { existingObjects } from './existing.ts';

/** Whether the numbers never go down, or never go up. */
function monotonic(values: number[]): boolean {
  const rising = values.every((value, i) => i === 0 || value >= values[i - 1]!);
  const falling = values.every((value, i) => i === 0 || value <= values[i - 1]!);
  return rising || falling;
}

/**
 * In a destructive run, three collections of the run's own, made one after the other: the newest
 * of the list, so that walked in pages of 2 they always straddle a page boundary.
 */
async function ownCollections(context: CheckContext, what: string): Promise<CreatedCollection[]> {
  if (!context.destructive) return [];
  const made: CreatedCollection[] = [];
  for (const n of [1, 2, 3]) made.push(await context.run.createCollection(`${what}-${n}`));
  return made;
}

/** Makes sure the list holds at least `count` collections, creating them in a destructive run. */
async function atLeast(context: CheckContext, count: number): Promise<unknown[]> {
  const { target, run } = context;
  let items = await target.walkCollections();
  if (items.length < count && context.destructive) {
    for (let i = items.length; i < count; i++) await run.createCollection(`page-${i}`);
    items = await target.walkCollections();
  }
  if (items.length < count)
    context.skip(
      `needs at least ${count} collections (found ${items.length})${destructiveHint(context)}`,
    );
  return items;
}

export const listingChecks = [
  defineCheck({
    id: 'list.summaries',
    usesWhereOffered: ['listObjects', 'search'],
    title: 'lists summaries that each carry an object count and metadata, counts that are right',
    clauses: ['COLL-LIST-1', 'COLL-2', 'COLL-3'],
    profileClauses: ['GAP-COLL-FIELDS'],
    level: 'spec',
    uses: ['listCollections'],
    exclusive: true,
    async run(context) {
      const { target, settle } = context;
      const main = context.destructive ? await context.run.main() : undefined;
      const items = await settle.until(async () => {
        const walked = await target.walkCollections();
        if (main) {
          const ours = walked.find((summary) => target.collectionIdOf(summary) === main.id);
          ensure(ours, `the collection this run created (${main.id}) is not in the list`);
          ensure(
            target.objectCountOf(ours) === main.objectIds.length,
            `the collection this run created holds ${main.objectIds.length} objects; its summary says ${target.objectCountOf(ours)}`,
          );
        }
        return walked;
      });
      if (items.length === 0)
        context.skip(`the list is empty: no summary to check${destructiveHint(context)}`);
      const { objectCount, metadata } = target.description.collection;
      for (const summary of items) {
        const id = target.collectionIdOf(summary) ?? '(a summary)';
        ensure(
          target.objectCountOf(summary) !== undefined,
          `${id} has no object count (a whole number at ${objectCount})`,
        );
        ensure(target.metadataOf(summary) !== undefined, `${id} has no metadata at ${metadata}`);
      }
      // @note Counts against the objects each collection really holds, where the description
      // offers a way to see them: listObjects (every object), or a search scoped to one
      // collection (a count is at least what it finds there). Existing data, judged unwritten.
      if (!target.offers('listObjects')) {
        const { objects } = await existingObjects(context, undefined, 12);
        for (const summary of items) {
          const id = target.collectionIdOf(summary);
          const found = objects.filter((object) => id && object.collectionId === id).length;
          ensure(
            (target.objectCountOf(summary) ?? 0) >= found,
            `collection ${id} reports ${target.objectCountOf(summary)} objects, yet a search within it finds ${found}`,
          );
        }
        return;
      }
      for (const summary of items.slice(0, 5)) {
        const id = target.collectionIdOf(summary);
        if (!id) continue;
        const held = (
          await target.walk({ operation: 'listObjects', params: { collection_id: id } })
        ).items.length;
        ensure(
          target.objectCountOf(summary) === held,
          `collection ${id} reports ${target.objectCountOf(summary)} objects in the list but holds ${held}`,
        );
        if (context.profile && target.offers('getCollection')) {
          const got = await target.send('getCollection', { params: { collection_id: id } });
          const count = target.objectCountOf(target.collectionIn(got.json));
          ensure(
            count === held,
            `collection ${id} reports ${count} objects when fetched but holds ${held}`,
          );
        }
      }
    },
  }),
  defineCheck({
    id: 'list.order',
    title: 'sorts the whole list by creation date (in one direction), over every page',
    clauses: ['COLL-LIST-3'],
    level: 'spec',
    uses: ['listCollections'],
    exclusive: true,
    async run(context) {
      const { target } = context;
      const own = await ownCollections(context, 'order');
      const items = await context.settle.until(async () => {
        const walked = await target.walkCollections({ pageSize: 2, complete: true });
        const ids = walked.map((summary) => target.collectionIdOf(summary));
        const positions = own.map((collection) => ids.indexOf(collection.id));
        ensure(!positions.includes(-1), `a collection this run created is missing from the list`);
        // @note Created back to back, they may share a creation date (a target that keeps whole
        // seconds): then any order among them is by the date, and no order is wrong.
        const dates = positions.map((at) => target.createdAtOf(walked[at]));
        const distinct = new Set(dates).size === dates.length && !dates.includes(undefined);
        ensure(
          !distinct || monotonic(positions),
          `three collections created one after the other are listed out of creation order (positions ${positions.join(', ')})`,
        );
        return walked;
      });
      const dates = items.map((summary) => target.createdAtOf(summary));
      if (dates.some((date) => date === undefined)) {
        if (own.length === 0)
          context.skip(
            `no creation date at ${target.description.collection.createdAt} in every summary, and no data of the run's own to order${destructiveHint(context)}`,
          );
        return;
      }
      if (items.length < 2)
        context.skip(
          `needs at least 2 collections to see an order (found ${items.length})${destructiveHint(context)}`,
        );
      ensure(
        monotonic(dates as number[]),
        `the list of ${items.length} collections (walked in pages of 2) is not sorted by creation date`,
      );
    },
  }),
  defineCheck({
    id: 'list.walk',
    title: 'pages through every collection: the walk ends, repeats none and skips none',
    clauses: ['COLL-LIST-1', 'COLL-LIST-2'],
    profileClauses: ['GAP-PAGE-PARAMS', 'GAP-PAGE-FIELDS'],
    level: 'spec',
    uses: ['listCollections'],
    exclusive: true,
    async run(context) {
      const { target } = context;
      const own = await ownCollections(context, 'walk');
      const walk = async (pageSize: number | undefined) =>
        (await target.walkCollections({ pageSize, complete: true })).map((summary) =>
          target.collectionIdOf(summary),
        );
      const ids = await context.settle.until(async () => {
        const walked = await walk(2);
        for (const collection of own)
          ensure(
            walked.includes(collection.id),
            `the walk skipped collection ${collection.id}, which this run created`,
          );
        return walked;
      });
      if (ids.some((id) => id === undefined))
        context.skip(`a summary has no id at ${target.description.collection.id}`);
      const repeated = ids.find((id, i) => ids.indexOf(id) !== i);
      ensure(
        repeated === undefined,
        `collection ${repeated} appears twice in one walk of the list (pages of 2)`,
      );
      if (ids.length < 3)
        context.skip(
          `needs at least 3 collections to walk more than one page (found ${ids.length})${destructiveHint(context)}`,
        );
      // @note The same list in the target's own page size (any size it allows): what one walk
      // shows and the other does not was skipped by one of them, between two pages.
      const whole = await walk(undefined);
      const skipped = whole.filter((id) => !ids.includes(id));
      ensure(
        skipped.length === 0,
        `walked in pages of 2, the list skipped ${skipped.length} of the ${whole.length} collections a walk in its default page size shows (e.g. ${skipped[0]})`,
      );
    },
  }),
  defineCheck({
    id: 'list.order-direction',
    title: 'sorts oldest first across pages by default, and newest first with order=desc',
    clauses: ['COLL-LIST-3', 'GAP-PAGE-PARAMS', 'GAP-SORT-DIRECTION'],
    level: 'profile',
    uses: ['listCollections'],
    exclusive: true,
    async run(context) {
      const { target } = context;
      await atLeast(context, 3);
      const asc = await target.walkCollections({ pageSize: 2 });
      const dates = asc.map((summary) => target.createdAtOf(summary) ?? Number.NaN);
      ensure(
        dates.every((date, i) => i === 0 || date >= dates[i - 1]!),
        `the default walk is not oldest first`,
      );
      const desc = await target.walkCollections({ pageSize: 2, query: { order: 'desc' } });
      const ids = (list: unknown[]) => list.map((summary) => target.collectionIdOf(summary));
      ensure(
        JSON.stringify(ids(desc)) === JSON.stringify(ids(asc).reverse()),
        'order=desc is not the default order reversed',
      );
    },
  }),
  defineCheck({
    id: 'list.page-size',
    title: 'honours the page size and refuses one outside 1-100 with 400',
    clauses: ['GAP-LIMIT-PAGE', 'GAP-PAGE-PARAMS'],
    level: 'profile',
    uses: ['listCollections'],
    exclusive: true,
    async run(context) {
      const { target } = context;
      const parameter =
        target.description.paging.pageSize ??
        context.skip('the target description names no page size parameter');
      await atLeast(context, 2);
      const one = await target.send('listCollections', { query: { [parameter]: '1' } });
      const items = target.itemsOf(one.json) ?? [];
      ensure(
        items.length === 1 && target.nextOf(one.json) !== undefined,
        `${parameter}=1 returned ${items.length} items and ${target.nextOf(one.json) === undefined ? 'no' : 'a'} next page`,
      );
      for (const size of ['0', '101', '-1', 'x']) {
        const refused = await target.send('listCollections', { query: { [parameter]: size } });
        ensure(refused.status === 400, `${parameter}=${size} answered ${refused.status}, not 400`);
      }
    },
  }),
];
