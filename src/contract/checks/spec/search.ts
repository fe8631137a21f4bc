import { defineCheck, ensure, type CheckContext } from '../../check.ts';

/** The object ids among the hits of a search for `query`, or a skip when hits cannot be read. */
export async function hitIds(
  context: CheckContext,
  query: string,
  key?: string,
): Promise<string[]> {
  const { target } = context;
  const found = await target.send('search', { key, body: { query } });
  ensure(found.status === 200, `${found.method} ${found.path} answered ${found.status}, not 200`);
  const hits = target.hitsOf(found.json);
  if (!hits)
    context.skip(`the search response has no array of hits at ${target.description.search.hits}`);
  const ids = hits.map((hit) => target.hitObjectIdOf(hit));
  if (ids.some((id) => id === undefined))
    context.skip(`a search hit has no object id at ${target.description.search.hitObjectId}`);
  return ids as string[];
}

export const specSearchChecks = [
  defineCheck({
    id: 'search.finds',
    title: 'finds the objects that contain a query word',
    clauses: ['SEARCH-1'],
    level: 'spec',
    needs: ['destructive'],
    async run(context) {
      if (!context.target.offers('search')) context.skip(context.target.missing('search'));
      const main = await context.run.main();
      const ids = await hitIds(context, main.word);
      for (const id of main.objectIds.slice(0, 2))
        ensure(
          ids.includes(id),
          `searching "${main.word}" does not find object ${id}, which contains it`,
        );
    },
  }),
  defineCheck({
    id: 'search.isolation',
    title: "never shows another account's objects in search results",
    clauses: ['ISO-1', 'AUTH-2'],
    level: 'spec',
    needs: ['destructive', 'otherAccountKey'],
    async run(context) {
      if (!context.target.offers('search')) context.skip(context.target.missing('search'));
      const main = await context.run.main();
      const theirs = await hitIds(context, main.word, context.keys.otherAccount);
      const leaked = theirs.filter((id) => main.objectIds.includes(id));
      ensure(
        leaked.length === 0,
        `another account's search finds this account's object ${leaked[0]}`,
      );
    },
  }),
];
