import { defineCheck, destructiveHint, ensure, type CheckContext } from '../../check.ts';
import type { CreatedCollection } from '../../target/run-data.ts';

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

function needsList(context: CheckContext): void {
  if (!context.target.offers('listCollections'))
    context.skip(context.target.missing('listCollections'));
}

export const specListingChecks = [
  defineCheck({
    id: 'list.summaries',
    title: 'lists summaries that each carry an object count and metadata, counts that are right',
    clauses: ['COLL-LIST-1', 'COLL-2', 'COLL-3'],
    level: 'spec',
    async run(context) {
      needsList(context);
      const { target } = context;
      const main = context.destructive ? await context.run.main() : undefined;
      const items = await target.walkCollections();
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
      if (main) {
        const ours = items.find((summary) => target.collectionIdOf(summary) === main.id);
        ensure(ours, `the collection this run created (${main.id}) is not in the list`);
        ensure(
          target.objectCountOf(ours) === main.objectIds.length,
          `the collection this run created holds ${main.objectIds.length} objects; its summary says ${target.objectCountOf(ours)}`,
        );
      }
    },
  }),
  defineCheck({
    id: 'list.order',
    title: 'sorts the whole list by creation date (in one direction), over every page',
    clauses: ['COLL-LIST-3'],
    level: 'spec',
    async run(context) {
      needsList(context);
      const { target } = context;
      const own = await ownCollections(context, 'order');
      const items = await target.walkCollections({ pageSize: 2 });
      const ids = items.map((summary) => target.collectionIdOf(summary));
      if (own.length > 0) {
        const positions = own.map((collection) => ids.indexOf(collection.id));
        ensure(!positions.includes(-1), `a collection this run created is missing from the list`);
        ensure(
          monotonic(positions),
          `three collections created one after the other are listed out of creation order (positions ${positions.join(', ')})`,
        );
      }
      const dates = items.map((summary) => target.createdAtOf(summary));
      if (dates.some((date) => date === undefined)) {
        if (own.length === 0)
          context.skip(
            `no creation date at ${target.description.collection.createdAt} in every summary, and no data of the run's own to order${destructiveHint(context)}`,
          );
        return;
      }
      if (items.length < 2) context.skip('needs at least 2 collections to see an order');
      ensure(monotonic(dates as number[]), 'the list is not sorted by creation date');
    },
  }),
  defineCheck({
    id: 'list.walk',
    title: 'pages through every collection: the walk ends, repeats none and skips none',
    clauses: ['COLL-LIST-1', 'COLL-LIST-2'],
    level: 'spec',
    async run(context) {
      needsList(context);
      const { target } = context;
      const own = await ownCollections(context, 'walk');
      const items = await target.walkCollections({ pageSize: 2 });
      const ids = items.map((summary) => target.collectionIdOf(summary));
      if (ids.some((id) => id === undefined))
        context.skip(`a summary has no id at ${target.description.collection.id}`);
      const repeated = ids.find((id, i) => ids.indexOf(id) !== i);
      ensure(
        repeated === undefined,
        `collection ${repeated} appears twice in one walk of the list`,
      );
      for (const collection of own)
        ensure(
          ids.includes(collection.id),
          `the walk skipped collection ${collection.id}, which this run created`,
        );
      if (own.length === 0 && items.length < 3)
        context.skip(
          `needs at least 3 collections to walk more than one page${destructiveHint(context)}`,
        );
    },
  }),
];
