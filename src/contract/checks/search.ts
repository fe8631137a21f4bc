import { defineCheck, judgeStatus, type CheckContext } from '../check.ts';
import { OPERATION_CLAUSE, visibleTo, type CollectionState } from '../judges/clause-of.ts';
import { allShown, foundByItsWords, nothingHidden } from '../judges/reads.ts';
import { onlyMatches, withinScope } from '../judges/document.ts';
import { together } from '../judges/verdict.ts';
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
  judgeStatus(context, OPERATION_CLAUSE.search, found, 200);
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

/** This account's data, and another account's, as the judges see them from the full key. */
const MINE: CollectionState = { key: 'full', deleted: false };
const THEIRS: CollectionState = { key: 'otherAccount', deleted: false };

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
    level: 'spec',
    uses: ['search'],
    async run(context) {
      if (context.destructive && context.target.offers('createCollection')) {
        const main = await context.run.main();
        await context.settle.until(async () => {
          const ids = await hitIds(context, main.word);
          context.judged(
            allShown(
              OPERATION_CLAUSE.search,
              `searching "${main.word}"`,
              main.objectIds.slice(0, 2),
              ids,
            ),
          );
        }, 'search');
        return;
      }
      // @note Read-only: an existing object must be found by a word of its own content, unless
      // so many objects hold the word that the answer may be one page of many.
      // @note Which fields a search reads is not stated: an object passes when a search for any
      // of three words of its longest text finds it, and fails only when none does and every
      // answer was surely whole.
      const verdicts = [];
      for (const { object, words } of await searchable(context)) {
        const tried: Array<{ word: string; hits: number }> = [];
        for (const word of words.slice(0, 3)) {
          const ids = await hitIds(context, word);
          if (ids.includes(object.id)) break;
          tried.push({ word, hits: ids.length });
        }
        verdicts.push(foundByItsWords(object.id, tried, Math.min(3, words.length), SURELY_WHOLE));
      }
      // @note A search that answered is no proof that it finds: none of the objects judged, the
      // check did not pass.
      const verdict = together(verdicts.filter((each) => each.outcome !== 'notJudged'));
      if (!verdict)
        return context.skip(verdicts.map((each) => ('reason' in each ? each.reason : ''))[0]!);
      context.judged(verdict);
    },
  }),
  defineCheck({
    id: 'search.isolation',
    usesWhereOffered: ['listObjects'],
    title: "never shows another account's objects in search results",
    level: 'spec',
    needs: ['otherAccountKey'],
    uses: ['search'],
    async run(context) {
      const other = context.keys.otherAccount!;
      if (context.destructive && context.target.offers('createCollection')) {
        const main = await context.run.main();
        const theirs = await hitIds(context, main.word, other);
        context.judged(
          nothingHidden(
            "another account's search",
            main.objectIds.map((id) => ({
              name: `this account's object ${id}`,
              state: MINE,
              shown: theirs.includes(id),
            })),
            (state) => visibleTo(state, 'otherAccount'),
            'otherAccount',
            OPERATION_CLAUSE.search,
            "another account's",
          ),
        );
        return;
      }
      // @note Read-only: the other account's objects, searched for by their own words with
      // this account's key, must not be found.
      for (const { object, words } of await searchable(context, other)) {
        for (const word of words.slice(0, 2)) {
          const ids = await hitIds(context, word);
          context.judged(
            nothingHidden(
              `searching "${word}" with this account's key`,
              [{ name: `${object.id}`, state: THEIRS, shown: ids.includes(object.id) }],
              (state) => visibleTo(state, 'full'),
              'full',
              OPERATION_CLAUSE.search,
              "another account's",
            ),
          );
        }
      }
    },
  }),
  defineCheck({
    id: 'search.relevance',
    title: 'returns only objects that contain a query word, by score',
    level: 'profile',
    needs: ['destructive'],
    uses: ['search', 'createCollection', 'createObject'],
    async run(context) {
      const { word } = await context.run.main();
      const hits = await hitsFor(context, word);
      const strays = hits.filter((hit: any) => !wordsOf(hit?.object?.content).includes(word));
      context.judged(
        onlyMatches(
          `searching "${word}"`,
          strays.map((hit) => String(context.target.hitObjectIdOf(hit))),
          hits.map((hit: any) => hit?.score as number),
        ),
      );
    },
  }),
  defineCheck({
    id: 'search.filter',
    title: 'restricts hits to the collections named in collection_ids',
    level: 'profile',
    needs: ['destructive'],
    uses: ['search', 'createCollection', 'createObject'],
    async run(context) {
      const { run } = context;
      const main = await run.main();
      const inside = await hitsFor(context, main.word, { collectionIds: [main.id] });
      const outside = inside.filter((hit: any) => hit?.collection_id !== main.id);
      context.judged(
        withinScope(
          `the filter to ${main.id}`,
          outside.map((h: any) => String(h?.collection_id)),
        ),
      );
      const other = await run.createCollection('filter', [{ title: 'no run word here' }]);
      const elsewhere = await hitsFor(context, main.word, { collectionIds: [other.id] });
      context.judged(
        withinScope(
          `searching "${main.word}" only in a collection without it`,
          elsewhere.map((h: any) => String(h?.collection_id)),
        ),
      );
    },
  }),
];
