import { CheckFailure, defineCheck, ensure, type CheckContext } from '../check.ts';
import { contentWordsOf, existingObjects, wordsOf, type ExistingObject } from './existing.ts';

/** The hits of a search for `query`, or a skip when hits cannot be read. */
async function hitsFor(
  context: CheckContext,
  query: string,
  options: { key?: string | undefined; collectionIds?: string[] } = {},
): Promise<unknown[]> {
  const { target } = context;
  const found = await target.send('search', {
    key: options.key,
    body: { query, collection_ids: options.collectionIds },
  });
  ensure(found.status === 200, `${found.method} ${found.path} answered ${found.status}, not 200`);
  const hits = target.hitsOf(found.json);
  if (!hits)
    context.skip(`the search response has no array of hits at ${target.description.search.hits}`);
  return hits;
}

/** The object ids among the hits of a search for `query`, or a skip when hits cannot be read. */
export async function hitIds(
  context: CheckContext,
  query: string,
  key?: string,
): Promise<string[]> {
  const { target } = context;
  const ids = (await hitsFor(context, query, { key })).map((hit) => target.hitObjectIdOf(hit));
  if (ids.some((id) => id === undefined))
    context.skip(`a search hit has no object id at ${target.description.search.hitObjectId}`);
  return ids as string[];
}

/**
 * Hits fewer than this are surely the whole answer (no page size of a search is smaller, ours is
 * 10): a search with fewer hits that misses an object that holds the word is wrong.
 */
const SURELY_WHOLE = 5;

/** Existing objects and a word of each to search for: read-only runs judge search on them. */
async function searchable(
  context: CheckContext,
  key?: string,
): Promise<Array<{ object: ExistingObject; words: string[] }>> {
  const { objects, why } = await existingObjects(context, key, 3);
  const usable = objects
    .filter((object) => object.shown !== undefined)
    .map((object) => ({ object, words: contentWordsOf(context.target, object.shown) }))
    .filter((entry) => entry.words.length > 0);
  if (usable.length === 0) context.skip(why);
  return usable;
}

export const searchChecks = [
  defineCheck({
    id: 'search.finds',
    usesWhereOffered: ['listObjects'],
    title: 'finds the objects that contain a query word',
    clauses: ['SEARCH-1'],
    profileClauses: ['GAP-SEARCH-REQ', 'GAP-SEARCH-RESP'],
    level: 'spec',
    uses: ['search'],
    async run(context) {
      if (context.destructive && context.target.offers('createCollection')) {
        const main = await context.run.main();
        await context.settle.until(async () => {
          const ids = await hitIds(context, main.word);
          for (const id of main.objectIds.slice(0, 2))
            ensure(
              ids.includes(id),
              `searching "${main.word}" does not find object ${id}, which contains it`,
            );
        });
        return;
      }
      // @note Read-only: an existing object must be found by a word of its own content, unless
      // so many objects hold the word that the answer may be one page of many.
      // @note Which fields a search reads is not stated: an object passes when a search for any
      // of three words of its longest text finds it, and fails only when none does and every
      // answer was surely whole.
      let judged = 0;
      for (const { object, words } of await searchable(context)) {
        const tried: Array<{ word: string; hits: number }> = [];
        for (const word of words.slice(0, 3)) {
          const ids = await hitIds(context, word);
          if (ids.includes(object.id)) break;
          tried.push({ word, hits: ids.length });
        }
        if (tried.length < Math.min(3, words.length)) {
          judged += 1;
          continue;
        }
        if (tried.some((t) => t.hits >= SURELY_WHOLE)) continue;
        throw new CheckFailure(
          `searching for ${tried.map((t) => `"${t.word}" (${t.hits} hits)`).join(', ')} never finds object ${object.id}, which contains each`,
        );
      }
      if (judged === 0)
        context.skip(
          `the existing objects' words are too common to judge one search (${SURELY_WHOLE} hits or more, which may be one page of many)`,
        );
    },
  }),
  defineCheck({
    id: 'search.isolation',
    usesWhereOffered: ['listObjects'],
    title: "never shows another account's objects in search results",
    clauses: ['ISO-1', 'AUTH-2'],
    profileClauses: ['GAP-ISOLATION'],
    level: 'spec',
    needs: ['otherAccountKey'],
    uses: ['search'],
    async run(context) {
      const other = context.keys.otherAccount!;
      if (context.destructive && context.target.offers('createCollection')) {
        const main = await context.run.main();
        const theirs = await hitIds(context, main.word, other);
        const leaked = theirs.filter((id) => main.objectIds.includes(id));
        ensure(
          leaked.length === 0,
          `another account's search finds this account's object ${leaked[0]}`,
        );
        return;
      }
      // @note Read-only: the other account's objects, searched for by their own words with
      // this account's key, must not be found.
      for (const { object, words } of await searchable(context, other)) {
        for (const word of words.slice(0, 2)) {
          const ids = await hitIds(context, word);
          ensure(
            !ids.includes(object.id),
            `searching "${word}" with this account's key finds ${object.id}, an object of another account`,
          );
        }
      }
    },
  }),
  defineCheck({
    id: 'search.relevance',
    title: 'returns only objects that contain a query word, by score',
    clauses: ['SEARCH-1', 'GAP-SEARCH-MATCH'],
    level: 'profile',
    needs: ['destructive'],
    uses: ['search', 'createCollection', 'createObject'],
    async run(context) {
      const { word } = await context.run.main();
      const hits = await hitsFor(context, word);
      const strays = hits.filter((hit: any) => !wordsOf(hit?.object?.content).includes(word));
      ensure(
        strays.length === 0,
        `searching "${word}" returned ${strays.length} object(s) without it, e.g. ${context.target.hitObjectIdOf(strays[0])}`,
      );
      const scores = hits.map((hit: any) => hit?.score as number);
      ensure(
        scores.every((s, i) => i === 0 || s <= scores[i - 1]!),
        'hits are not ordered by score',
      );
    },
  }),
  defineCheck({
    id: 'search.filter',
    title: 'restricts hits to the collections named in collection_ids',
    clauses: ['GAP-SEARCH-REQ'],
    level: 'profile',
    needs: ['destructive'],
    uses: ['search', 'createCollection', 'createObject'],
    async run(context) {
      const { run } = context;
      const main = await run.main();
      const inside = await hitsFor(context, main.word, { collectionIds: [main.id] });
      const outside = inside.filter((hit: any) => hit?.collection_id !== main.id);
      ensure(
        outside.length === 0,
        `the filter to ${main.id} returned hits from ${outside.map((h: any) => h?.collection_id).join(', ')}`,
      );
      const other = await run.createCollection('filter', [{ title: 'no run word here' }]);
      const elsewhere = await hitsFor(context, main.word, { collectionIds: [other.id] });
      ensure(
        elsewhere.length === 0,
        `searching "${main.word}" only in a collection without it found ${elsewhere.length} hits`,
      );
    },
  }),
];
