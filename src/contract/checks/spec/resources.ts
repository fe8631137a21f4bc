import { defineCheck, destructiveHint, ensure } from '../../check.ts';

export const specResourceChecks = [
  defineCheck({
    id: 'collection.get',
    title: 'fetches listed collections by their identifier',
    clauses: ['COLL-GET-1', 'COLL-1'],
    level: 'spec',
    async run(context) {
      const { target } = context;
      for (const needed of ['listCollections', 'getCollection'] as const)
        if (!target.offers(needed)) context.skip(target.missing(needed));
      if (context.destructive) await context.run.main();
      const ids = (target.itemsOf((await target.send('listCollections')).json) ?? [])
        .map((summary) => target.collectionIdOf(summary))
        .filter((id): id is string => id !== undefined);
      if (ids.length === 0)
        context.skip(`no identifiable collection to fetch${destructiveHint(context)}`);
      for (const id of ids.slice(0, 5)) {
        const got = await target.send('getCollection', { params: { collection_id: id } });
        ensure(got.status === 200, `${got.method} ${got.path} answered ${got.status}, not 200`);
        const returned = target.collectionIdOf(target.collectionIn(got.json));
        if (returned === undefined)
          context.skip(
            `the get response has no id at ${target.description.collection.in}${target.description.collection.id}`,
          );
        ensure(returned === id, `${got.method} ${got.path} returned collection ${returned}`);
      }
    },
  }),
  defineCheck({
    id: 'collection.isolation',
    title: "keeps accounts apart: another account's collections are neither listed nor fetchable",
    clauses: ['ISO-1', 'AUTH-2'],
    level: 'spec',
    needs: ['otherAccountKey'],
    async run(context) {
      const { target, run } = context;
      if (!target.offers('listCollections')) context.skip(target.missing('listCollections'));
      const other = context.keys.otherAccount!;
      const main = context.destructive ? await run.main() : undefined;
      const theirs = new Set(
        (await target.walkCollections({ key: other })).map((s) => target.collectionIdOf(s)),
      );
      const mine = (await target.walkCollections()).map((s) => target.collectionIdOf(s));
      if (theirs.has(undefined) || mine.includes(undefined))
        context.skip(
          `a summary has no id at ${target.description.collection.id}: the lists cannot be compared`,
        );
      const shared = mine.filter((id) => theirs.has(id));
      ensure(shared.length === 0, `collection ${shared[0]} is listed for both accounts`);
      if (!main) {
        if (mine.length === 0)
          context.skip(`this account has no collection to hide${destructiveHint(context)}`);
        return;
      }
      if (target.offers('getCollection')) {
        const got = await target.send('getCollection', {
          key: other,
          params: { collection_id: main.id },
        });
        ensure(
          target.isNotYours(got.status),
          `${got.method} ${got.path} of another account's collection answered ${got.status}, not one of ${target.description.statuses.notYours.join(', ')}`,
        );
        ensure(
          !got.text.includes(main.name),
          `${got.method} ${got.path} of another account's collection leaked its name`,
        );
      }
      if (target.offers('getObject')) {
        const got = await target.send('getObject', {
          key: other,
          params: { collection_id: main.id, object_id: main.objectIds[0] },
        });
        ensure(
          target.isNotYours(got.status),
          `${got.method} ${got.path} of another account's object answered ${got.status}`,
        );
        ensure(
          !got.text.includes(main.word),
          `${got.method} ${got.path} leaked another account's object`,
        );
      }
    },
  }),
  defineCheck({
    id: 'object.get',
    title: 'fetches an object by its identifier with its complete data and its system fields',
    clauses: ['OBJ-2', 'OBJ-3', 'OBJ-GET-1'],
    level: 'spec',
    needs: ['destructive'],
    async run(context) {
      const { target, run } = context;
      if (!target.offers('getObject')) context.skip(target.missing('getObject'));
      const content = {
        title: `${run.uniqueWord} complete`,
        nested: { list: [1, { deep: 'kept' }] },
      };
      const made = await run.createCollection('object', [content]);
      const objectId = made.objectIds[0]!;
      const got = await target.send('getObject', {
        params: { collection_id: made.id, object_id: objectId },
      });
      ensure(got.status === 200, `${got.method} ${got.path} answered ${got.status}, not 200`);
      const object = target.objectIn(got.json);
      ensure(
        target.objectIdOf(object) === objectId,
        `${got.method} ${got.path} returned object ${target.objectIdOf(object)}`,
      );
      const missing = target.missingSystemFields(object);
      ensure(
        missing.length === 0,
        `the fetched object lacks the system field(s) ${missing.join(', ')}`,
      );
      for (const part of [`${run.uniqueWord} complete`, '"deep":"kept"', '[1,'])
        ensure(
          JSON.stringify(object).includes(part),
          `the fetched object lost part of its content (${part})`,
        );
    },
  }),
];
