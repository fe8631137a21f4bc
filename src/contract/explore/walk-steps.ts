/**
 * The steps of `explore` that walk the list while the conditions change: writes between pages,
 * and later pages asked for with another key than the first. The spec states a paginated list of
 * the caller's collections; these steps hold a walk to that when a single check never would.
 */
import { CheckFailure } from '../failure.ts';
import type { CollectionPair } from '../expectations/state.ts';
import { accountOf, OPERATION_CLAUSE, visibleTo } from '../judges/clause-of.ts';
import { short } from '../judges/json.ts';
import { nothingHidden } from '../judges/reads.ts';
import { livedThroughOnce, pagesOfTheirKey, walkBroken } from '../judges/walks.ts';
import type { StepRecord } from '../judges/verdict.ts';
import type { KeyName } from './step-kind.ts';
import type { World } from './world.ts';
import { createCollection, deleteCollection } from './collection-steps.ts';
import { reachOfWalk } from './whole-walk.ts';

/** The run's collection numbers (1, 2, ...) among a page's items, as the target names them. */
function numbers(world: World, items: unknown[]): number[] {
  const index = new Map(world.expected.collections.map((pair, i) => [pair.target, i + 1]));
  return items
    .map((item) => index.get(world.target.collectionIdOf(item) ?? ''))
    .filter((n) => n !== undefined);
}

const numbered = (world: World, pairs: Iterable<CollectionPair>) =>
  [...pairs].map((pair) => world.expected.numberOf(pair)).sort((a, b) => a - b);

/** A walk the target broke off (a page refused, a token repeated): the list's paging fails. */
function broken(world: World, record: StepRecord, error: unknown): never {
  if (!(error instanceof CheckFailure) || error.clause !== undefined) throw error;
  record.target = error.message;
  world.judged(walkBroken(error.message), record);
  throw error;
}

/**
 * A walk with a write after each of its first pages: a new collection, or a delete of one of the
 * run's. What lived through the walk is shown exactly once; nothing deleted before it is shown.
 */
export async function walkWhileWriting(
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
        if (write === null) return createCollection(world, writer, {});
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
  // @note Looked at again, if need be, after the walk's writes: only the count of a larger
  // page is read, to see whether the list goes on past the walk's one page.
  const reach = await reachOfWalk(
    walked,
    pageSize,
    paging,
    world.target.description.limits.pageSize,
    (again) => {
      world.requests += 1;
      return world.target.walk({ key: world.keys[key], ...again });
    },
  );
  world.judged(
    livedThroughOnce(
      reach,
      paging.page !== undefined || paging.offset !== undefined,
      numbered(world, survivors),
      seen,
    ),
    record,
  );
}

/**
 * A walk whose first page is asked for with one key and the next ones with another, carrying the
 * first key's token or link. The target may refuse it; what it shows must be the second key's.
 */
export async function walkAcrossKeys(
  world: World,
  pageSize: number,
  first: KeyName,
  then: KeyName,
): Promise<void> {
  if (first === 'inactive' || then === 'inactive') return;
  const keyOf = (page: number) => (page === 1 ? first : then);
  const record: StepRecord = {
    request: `walk the list of collections, pages of ${pageSize}: page 1 with key ${first}, the next ones with key ${then} and the link or token page 1 gave`,
    model: `only the collections of the key that asks, on every page (or a refusal)`,
    target: '',
  };
  world.records.push(record);
  world.coverage.count(world.coverage.operations, 'listCollections');
  const pages: string[] = [];
  let foreign: { page: number; key: string; n: number } | undefined;
  try {
    await world.target.walk({
      key: world.keys[first],
      keyFor: (page) => world.keys[keyOf(page)],
      pageSize,
      onPage: async (page, items) => {
        world.requests += 1;
        const shown = numbers(world, items);
        pages.push(`page ${page}: ${short(shown)}`);
        const n = shown.find(
          (m) => accountOf(world.expected.collections[m - 1]!.key) !== accountOf(keyOf(page)),
        );
        if (n !== undefined && !foreign) foreign = { page, key: keyOf(page), n };
      },
    });
  } catch (error) {
    // @note A token bound to the key it was given to may be refused when another presents it.
    if (pages.length === 0) broken(world, record, error);
    if (!(error instanceof CheckFailure) || error.clause !== undefined) throw error;
    pages.push(`then refused (${error.message})`);
  }
  record.target = `collections by page: ${pages.join('; ')}`;
  world.judged(pagesOfTheirKey(foreign), record);
}
