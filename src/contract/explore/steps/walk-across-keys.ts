/** A walk whose later pages are asked for with another key than the first. */
import { CheckFailure } from '../../failure.ts';
import { accountOf } from '../../judges/clause-of.ts';
import { short } from '../../judges/json.ts';
import type { StepRecord } from '../../judges/verdict.ts';
import { pagesOfTheirKey } from '../../judges/walks.ts';
import { stepKind, type KeyName } from '../step-kind.ts';
import type { World } from '../world.ts';
import { broken, numbers } from './walk-while-writing.ts';

export const walkAcrossKeys = stepKind({
  kind: 'walkAcrossKeys',
  // @note Drawn only when there is another key to carry on with.
  weight: ({ keys }) => (keys.length > 1 ? 2 : 0),
  needs: ['listCollections'],
  walks: true,
  fields: ({ pageSize, key }) => ({ pageSize, first: key, then: key }),
  run: (world, step) => walk(world, world.pageSize(step.pageSize), step.first, step.then),
});

/**
 * A walk whose first page is asked for with one key and the next ones with another, carrying the
 * first key's token or link. The target may refuse it; what it shows must be the second key's.
 */
async function walk(world: World, pageSize: number, first: KeyName, then: KeyName): Promise<void> {
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
