/**
 * The steps of `explore` that walk the list while the conditions change: writes between pages,
 * and later pages asked for with another key than the first. The spec states a paginated list of
 * the caller's collections; these steps hold a walk to that when a single check never would.
 */
import { CheckFailure } from '../failure.ts';
import { Divergence, short, type CollectionPair, type StepRecord } from './comparison.ts';
import type { Explorer } from './explorer.ts';
import type { KeyName } from './step-kind.ts';

const account = (key: KeyName) => (key === 'otherAccount' ? 'other' : 'own');

/** The run's collection numbers (1, 2, ...) among a page's items, as the target names them. */
function numbers(world: Explorer, items: unknown[]): number[] {
  const index = new Map(world.collections.map((pair, i) => [pair.target, i + 1]));
  return items
    .map((item) => index.get(world.target.collectionIdOf(item) ?? ''))
    .filter((n) => n !== undefined);
}

const numbered = (world: Explorer, pairs: Iterable<CollectionPair>) =>
  [...pairs].map((pair) => world.collections.indexOf(pair) + 1).sort((a, b) => a - b);

/**
 * A walk with a write after each of its first pages: a new collection, or a delete of one of the
 * run's. What lived through the walk is shown exactly once; nothing deleted before it is shown.
 */
export async function walkWhileWriting(
  world: Explorer,
  pageSize: number,
  key: KeyName,
  writes: Array<number | null>,
): Promise<void> {
  if (key === 'inactive') return;
  const visible = (pair: CollectionPair) => account(pair.key) === account(key);
  const writer: KeyName = account(key) === 'other' ? 'otherAccount' : 'full';
  const record: StepRecord = {
    request: `walk the list of collections, pages of ${pageSize} (key ${key}), with a write after each of the first ${writes.length} pages (the next steps)`,
    model: '',
    target: '',
  };
  world.records.push(record);
  world.coverage.count(world.coverage.operations, 'listCollections');
  const before = world.collections.filter((pair) => !pair.deleted && visible(pair));
  const goneBefore = new Set(world.collections.filter((pair) => pair.deleted));
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
        if (write === null) return world.createCollection(writer, {});
        const pair = world.collection(write);
        if (pair && visible(pair) && !pair.deleted)
          // No read back: the walk's next page is what is judged.
          return world.deleteCollection(world.collections.indexOf(pair), pair.key, false);
      },
    })
    .catch((error: unknown) => {
      if (!(error instanceof CheckFailure) || error.clause !== undefined) throw error;
      record.target = error.message;
      throw new Divergence('COLL-LIST-2', error.message, record);
    });
  const survivors = before.filter((pair) => !pair.deleted);
  record.model = `collections ${short(numbered(world, survivors))}, each once (those created or deleted during the walk may show)`;
  record.target = `collections ${short(seen)}${walked.partial ? ` (${walked.partial})` : ''}`;
  if (walked.partial) return;
  const stray = seen.find((n) => goneBefore.has(world.collections[n - 1]!));
  if (stray !== undefined)
    throw new Divergence(
      'DEL-1',
      `the walk showed collection #${stray}, deleted before it`,
      record,
    );
  const foreign = seen.find((n) => !visible(world.collections[n - 1]!));
  if (foreign !== undefined)
    throw new Divergence(
      'ISO-1',
      `the walk showed collection #${foreign}, another account's`,
      record,
    );
  // @note Numbered and offset pages shift when an earlier item is created or deleted: that is
  // how such paging works, so a walk by them is held to nothing more. Tokens and links name where
  // the next page starts, and a walk by them sees each item that lived through it once.
  const { paging } = world.target.description;
  if (paging.page !== undefined || paging.offset !== undefined) return;
  world.coverage.count(world.coverage.clauses, 'COLL-LIST-2');
  const twice = seen.find((n, i) => seen.indexOf(n) !== i);
  if (twice !== undefined)
    throw new Divergence('COLL-LIST-2', `the walk showed collection #${twice} twice`, record);
  const missed = numbered(world, survivors).filter((n) => !seen.includes(n));
  if (missed.length > 0)
    throw new Divergence(
      'COLL-LIST-2',
      `the walk never showed collection${missed.length > 1 ? 's' : ''} #${missed.join(', #')}, which lived through it`,
      record,
    );
}

/**
 * A walk whose first page is asked for with one key and the next ones with another, carrying the
 * first key's token or link. The target may refuse it; what it shows must be the second key's.
 */
export async function walkAcrossKeys(
  world: Explorer,
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
  let foreign: { page: number; n: number } | undefined;
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
          (m) => account(world.collections[m - 1]!.key) !== account(keyOf(page)),
        );
        if (n !== undefined && !foreign) foreign = { page, n };
      },
    });
  } catch (error) {
    if (!(error instanceof CheckFailure) || error.clause !== undefined) throw error;
    // @note A token bound to the key it was given to may be refused when another presents it.
    pages.push(`then refused (${error.message})`);
    if (pages.length === 1) {
      record.target = pages.join('; ');
      throw new Divergence('COLL-LIST-2', error.message, record);
    }
  }
  record.target = `collections by page: ${pages.join('; ')}`;
  world.coverage.count(world.coverage.clauses, 'ISO-1');
  if (foreign)
    throw new Divergence(
      'ISO-1',
      `page ${foreign.page}, asked for with key ${keyOf(foreign.page)}, showed collection #${foreign.n}, which that key's account does not own`,
      record,
    );
}
