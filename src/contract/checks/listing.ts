import { defineCheck, destructiveHint, judgeStatus, type CheckContext } from '../check.ts';
import { OPERATION_CLAUSE } from '../judges/clause-of.ts';
import { DECISION, oldestFirst, pageSizeHonoured, reversedOnRequest } from '../judges/document.ts';
import { allShown } from '../judges/reads.ts';
import { countsAtLeast, objectCount, summaryHolds } from '../judges/values.ts';
import {
  creationOrder,
  eachShownOnce,
  noneSkipped,
  onPartOfTheList,
  sortedByCreation,
} from '../judges/walks.ts';
import type { CreatedCollection } from '../runner/run-data.ts';
import { existingObjects } from './existing.ts';

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
  // @note A walk that did not reach the end counts no collections: it says why instead.
  let walk = await target.walk();
  if (walk.items.length < count && walk.reach.whole && context.destructive) {
    for (let i = walk.items.length; i < count; i++) await run.createCollection(`page-${i}`);
    walk = await target.walk();
  }
  if (walk.items.length < count)
    context.skip(
      walk.reach.whole
        ? `needs at least ${count} collections (found ${walk.items.length})${destructiveHint(context)}`
        : walk.reach.why,
    );
  return walk.items;
}

export const listingChecks = [
  defineCheck({
    id: 'list.summaries',
    usesWhereOffered: ['listObjects', 'search'],
    title: 'lists summaries that each carry an object count and metadata, counts that are right',
    level: 'spec',
    uses: ['listCollections'],
    exclusive: true,
    async run(context) {
      const { target, settle } = context;
      const main = context.destructive ? await context.run.main() : undefined;
      const items = await settle.until(async () => {
        // @note Short of the end (a cut, the kit's bound), the list may show it further on.
        const { items: walked, partial } = await target.walk();
        if (main) {
          const ours = walked.find((summary) => target.collectionIdOf(summary) === main.id);
          const created = `the collection this run created (${main.id})`;
          const shown = allShown(
            OPERATION_CLAUSE.listCollections,
            'the list',
            [created],
            ours ? [created] : [],
          );
          context.judged(onPartOfTheList(shown, partial, 'shows'));
          if (ours)
            context.judged(
              objectCount(
                `the collection this run created (${main.id}): the object count of its summary`,
                main.objectIds.length,
                target.objectCountOf(ours),
                'the run',
              ),
            );
        }
        return walked;
      });
      if (items.length === 0)
        context.skip(`the list is empty: no summary to check${destructiveHint(context)}`);
      const at = target.description.collection;
      for (const summary of items) {
        const id = target.collectionIdOf(summary) ?? '(a summary)';
        context.judged(
          summaryHolds(id, target.objectCountOf(summary), target.metadataOf(summary), at),
        );
      }
      // @note Counts against the objects each collection really holds, where the description
      // offers a way to see them: listObjects (every object), or a search scoped to one
      // collection (a count is at least what it finds there). Existing data, judged unwritten.
      if (!target.offers('listObjects')) {
        const { objects } = await existingObjects(context, undefined, 12);
        for (const summary of items) {
          const id = target.collectionIdOf(summary);
          const found = objects.filter((object) => id && object.collectionId === id).length;
          context.judged(
            countsAtLeast(
              `collection ${id}`,
              target.objectCountOf(summary),
              found,
              'a search within it finds',
            ),
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
        context.judged(
          objectCount(
            `collection ${id}: the object count in the list`,
            held,
            target.objectCountOf(summary),
            'its objects walked whole',
          ),
        );
        if (context.profile && target.offers('getCollection')) {
          const got = await target.send('getCollection', { params: { collection_id: id } });
          const count = target.objectCountOf(target.collectionIn(got.json));
          context.judged(
            objectCount(
              `collection ${id}: the object count when fetched`,
              held,
              count,
              'its objects walked whole',
            ),
          );
        }
      }
    },
  }),
  defineCheck({
    id: 'list.order',
    title: 'sorts the whole list by creation date (in one direction), over every page',
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
        context.judged(
          allShown(
            OPERATION_CLAUSE.listCollections,
            'the list',
            own.map((collection) => collection.id),
            own.map((collection) => collection.id).filter((id) => ids.includes(id)),
          ),
        );
        // @note Created back to back, they may share a creation date (a target that keeps whole
        // seconds): then any order among them is by the date, and no order is wrong.
        if (own.length > 0) {
          const created = new Map(
            positions.map((at, i) => [i + 1, target.createdAtOf(walked[at])] as const),
          );
          const seen = own
            .map((_, i) => i + 1)
            .sort((a, b) => positions[a - 1]! - positions[b - 1]!);
          context.judged(creationOrder({ whole: true }, [1, 2, 3], seen, created));
        }
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
      context.judged(
        sortedByCreation(
          `the list of ${items.length} collections (walked in pages of 2)`,
          dates as number[],
        ),
      );
    },
  }),
  defineCheck({
    id: 'list.walk',
    title: 'pages through every collection: the walk ends, repeats none and skips none',
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
        context.judged(
          allShown(
            OPERATION_CLAUSE.listCollections,
            'the walk (pages of 2)',
            own.map((collection) => collection.id),
            own.map((collection) => collection.id).filter((id) => walked.includes(id)),
          ),
        );
        return walked;
      });
      if (ids.some((id) => id === undefined))
        context.skip(`a summary has no id at ${target.description.collection.id}`);
      context.judged(eachShownOnce('one walk of the list (pages of 2)', ids as string[]));
      if (ids.length < 3)
        context.skip(
          `needs at least 3 collections to walk more than one page (found ${ids.length})${destructiveHint(context)}`,
        );
      // @note The same list in the target's own page size (any size it allows): what one walk
      // shows and the other does not was skipped by one of them, between two pages.
      const whole = await walk(undefined);
      const skipped = whole.filter((id) => !ids.includes(id));
      context.judged(
        noneSkipped(
          `walked in pages of 2, the list skipped ${skipped.length} of the ${whole.length} collections a walk in its default page size shows (e.g. ${skipped[0]})`,
          skipped.length,
        ),
      );
    },
  }),
  defineCheck({
    id: 'list.order-direction',
    title: 'sorts oldest first across pages by default, and newest first with order=desc',
    level: 'profile',
    uses: ['listCollections'],
    exclusive: true,
    async run(context) {
      const { target } = context;
      await atLeast(context, 3);
      const asc = await target.walkCollections({ pageSize: 2 });
      const dates = asc.map((summary) => target.createdAtOf(summary) ?? Number.NaN);
      context.judged(oldestFirst(dates));
      const desc = await target.walkCollections({ pageSize: 2, query: { order: 'desc' } });
      const ids = (list: unknown[]) => list.map((summary) => target.collectionIdOf(summary));
      context.judged(
        reversedOnRequest(JSON.stringify(ids(desc)) === JSON.stringify(ids(asc).reverse())),
      );
    },
  }),
  defineCheck({
    id: 'list.page-size',
    title: 'honours the page size and refuses one outside 1-100 with 400',
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
      context.judged(
        pageSizeHonoured(`${parameter}=1`, items.length, target.nextOf(one) !== undefined),
      );
      for (const size of ['0', '101', '-1', 'x']) {
        const refused = await target.send('listCollections', { query: { [parameter]: size } });
        judgeStatus(context, DECISION.limitPage, refused, 400, `(${parameter}=${size})`);
      }
    },
  }),
];
