/** A walk of the whole list of collections: each once, in order, with their summaries. */
import { keyClause, OPERATION_CLAUSE, visibleTo } from '../../judges/clause-of.ts';
import { short } from '../../judges/json.ts';
import { nothingHidden } from '../../judges/reads.ts';
import type { StepRecord } from '../../judges/verdict.ts';
import { creationOrder, eachOnce } from '../../judges/walks.ts';
import type { Target } from '../../target-api/target.ts';
import { stepKind, type KeyName } from '../step-kind.ts';
import type { World } from '../world.ts';
import { judgeSummary } from './get-collection.ts';

export const walk = stepKind({
  kind: 'walk',
  weight: 2,
  needs: ['listCollections'],
  walks: true,
  fields: ({ pageSize, key }) => ({ pageSize, key }),
  run: (world, step) =>
    world.settled(() => walkList(world, world.pageSize(step.pageSize), step.key)),
});

async function walkList(world: World, pageSize: number, key: KeyName): Promise<void> {
  if (key === 'inactive') {
    const [target, model] = await world.both('listCollections', key);
    const record = world.record(`list collections (key inactive)`, model, target);
    return world.answered(
      keyClause(key, false, OPERATION_CLAUSE.listCollections),
      model,
      target,
      record,
    );
  }
  const { expected } = world;
  world.coverage.count(world.coverage.operations, 'listCollections');
  const [targetItems, modelItems] = await Promise.all([
    world.target.walk({ key: world.keys[key], pageSize }),
    world.model.walk({ key: world.modelKeys[key], pageSize }),
  ]);
  world.requests += 2;
  const ours = (side: Target, items: unknown[], which: 'target' | 'model') => {
    const index = new Map(expected.collections.map((pair, i) => [pair[which], i + 1]));
    return items
      .map((item) => index.get(side.collectionIdOf(item) ?? ''))
      .filter((n) => n !== undefined);
  };
  const wanted = ours(world.model, modelItems.items, 'model');
  const seen = ours(world.target, targetItems.items, 'target');
  const record: StepRecord = {
    request: `walk the list of collections, pages of ${pageSize} (key ${key})`,
    model: `collections ${short(wanted)}`,
    target: `collections ${short(seen)}${targetItems.partial ? ` (${targetItems.partial})` : ''}`,
  };
  world.records.push(record);
  const { reach } = targetItems;
  // @note A collection listed that the key must not see (deleted, another account's) breaks
  // its own clause (DEL-1, ISO-1), not the list's paging or order.
  world.judged(
    nothingHidden(
      'the list',
      expected.collections.map((pair, i) => ({
        name: `#${i + 1}`,
        state: pair,
        shown: seen.includes(i + 1),
      })),
      (state) => visibleTo(state, key),
      key,
      OPERATION_CLAUSE.listCollections,
      'not the caller’s',
    ),
    record,
  );
  const created = new Map<number, number | undefined>();
  const index = new Map(expected.collections.map((pair, i) => [pair.target, i + 1]));
  for (const item of targetItems.items) {
    const n = index.get(world.target.collectionIdOf(item) ?? '');
    if (n !== undefined) created.set(n, world.target.createdAtOf(item));
  }
  // @note A collection missing or shown twice breaks the paging (COLL-LIST-2), not the order;
  // the spec states creation order, not its direction (GAP-SORT-DIRECTION).
  world.judged(eachOnce(reach, wanted, seen), record);
  world.judged(creationOrder(reach, wanted, seen, created), record);
  if (!reach.whole) return;
  // Each summary of the run's collections (§2, §4: an object count and metadata) against the
  // model's summary of the same collection and the metadata its writes left.
  const modelById = new Map(
    modelItems.items.map((item) => [world.model.collectionIdOf(item), item] as const),
  );
  for (const item of targetItems.items) {
    const pair = expected.collections.find((p) => p.target === world.target.collectionIdOf(item));
    const twin = pair && modelById.get(pair.model);
    if (!pair || twin === undefined) continue;
    judgeSummary(
      world,
      pair,
      item,
      twin,
      record,
      `the list's summary of collection #${expected.numberOf(pair)}: `,
    );
  }
}
