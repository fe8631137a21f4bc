/** A walk with writes between its pages: a new collection (`ref` null) or a delete. */
import type { CollectionPair } from '../../expectations/state.ts';
import { CheckFailure } from '../../failure.ts';
import { accountOf, OPERATION_CLAUSE, visibleTo } from '../../judges/clause-of.ts';
import { short } from '../../judges/json.ts';
import { nothingHidden } from '../../judges/reads.ts';
import type { StepRecord } from '../../judges/verdict.ts';
import { livedThroughOnce, walkBroken } from '../../judges/walks.ts';
import * as fc from '../fast-check.ts';
import { stepKind, type KeyName } from '../step-kind.ts';
import type { World } from '../world.ts';
import { create as createCollection } from './create-collection.ts';
import { remove as deleteCollection } from './delete-collection.ts';

export const walkWhileWriting = stepKind({
  kind: 'walkWhileWriting',
  weight: 2,
  needs: ['listCollections', 'createCollection', 'deleteCollection'],
  walks: true,
  fields: ({ pageSize, key, ref }) => ({
    pageSize,
    key,
    writes: fc.array(fc.option(ref, { nil: null }), { minLength: 1, maxLength: 3 }),
  }),
  run: (world, step) => walk(world, world.pageSize(step.pageSize), step.key, step.writes),
});

/** The run's collection numbers (1, 2, ...) among a page's items, as the target names them. */
export function numbers(world: World, items: unknown[]): number[] {
  const index = new Map(world.expected.collections.map((pair, i) => [pair.target, i + 1]));
  return items
    .map((item) => index.get(world.target.collectionIdOf(item) ?? ''))
    .filter((n) => n !== undefined);
}
const numbered = (world: World, pairs: Iterable<CollectionPair>) =>
  [...pairs].map((pair) => world.expected.numberOf(pair)).sort((a, b) => a - b);
/** A walk the target broke off (a page refused, a token repeated): the list's paging fails. */
export function broken(world: World, record: StepRecord, error: unknown): never {
  if (!(error instanceof CheckFailure) || error.clause !== undefined) throw error;
  record.target = error.message;
  world.judged(walkBroken(error.message), record);
  throw error;
}
/**
 * A walk with a write after each of its first pages: a new collection, or a delete of one of the
 * run's. What lived through the walk is shown exactly once; nothing deleted before it is shown.
 */
async function walk(
  world: World,
  pageSize: number,
  key: KeyName,
  writes: Array<number | null>,
): Promise<void> {
  if (key === 'inactive') return;
  const { expected } = world;
  const writer: KeyName = accountOf(key) === 'other' ? 'otherAccount' : 'full';
  const record: StepRecord = {
    request: `walk the list of collections, pages of ${pageSize} (key ${key}), with a write after each of the first ${writes.length} pages (the next steps)`,
    model: '',
    target: '',
  };
  world.records.push(record);
  world.coverage.count(world.coverage.operations, 'listCollections');
  const before = expected.collections.filter((pair) => visibleTo(pair, key));
  const goneBefore = new Set(expected.collections.filter((pair) => pair.deleted));
  const seen: number[] = [];
  const walked = await world.target
    .walk({
      key: world.keys[key],
      pageSize,
      onPage: async (page, items) => {
        world.requests += 1;
        seen.push(...numbers(world, items));
        const write = writes[page - 1];
        if (write === undefined) return;
        if (write === null) return void (await createCollection(world, writer, {}));
        const pair = expected.collection(write);
        if (pair && visibleTo(pair, key))
          // No read back: the walk's next page is what is judged.
          return deleteCollection(world, expected.collections.indexOf(pair), pair.key, false);
      },
    })
    .catch((error: unknown) => broken(world, record, error));
  const survivors = before.filter((pair) => !pair.deleted);
  record.model = `collections ${short(numbered(world, survivors))}, each once (those created or deleted during the walk may show)`;
  record.target = `collections ${short(seen)}${walked.partial ? ` (${walked.partial})` : ''}`;
  // @note Collections created or deleted during the walk may show or not; one deleted before
  // it, or another account's, must not.
  world.judged(
    nothingHidden(
      'the walk',
      expected.collections.map((pair, i) => ({
        name: `#${i + 1}`,
        state: pair,
        shown: seen.includes(i + 1),
      })),
      (state) =>
        accountOf(state.key) === accountOf(key) && !goneBefore.has(state as CollectionPair),
      key,
      OPERATION_CLAUSE.listCollections,
      'not the caller’s',
    ),
    record,
  );
  const { paging } = world.target.description;
  world.judged(
    livedThroughOnce(
      walked.reach,
      paging.page !== undefined || paging.offset !== undefined,
      numbered(world, survivors),
      seen,
    ),
    record,
  );
}
