import { defineCheck, destructiveHint, judgeStatus, type CheckContext } from '../check.ts';
import {
  IDENTIFIED_BY,
  OPERATION_CLAUSE,
  shownClause,
  type CollectionState,
} from '../judges/clause-of.ts';
import { DECISION, problemCode, refusedLeftNothing } from '../judges/document.ts';
import { listedForOneAccount, refusalShowsNothing } from '../judges/reads.ts';
import {
  contentAsWritten,
  fetchedAsAsked,
  holdsContent,
  metadataAsWritten,
  systemFields,
  wordsKept,
} from '../judges/values.ts';
import { runName } from '../target-api/run-name.ts';
import { canFetch, contentWordsOf, existingObjects, wordsLost } from './existing.ts';

/** The object inside a get response, checked to be the one asked for, with its system fields. */
async function fetchObject(
  context: CheckContext,
  params: { collection_id?: string | undefined; object_id: string },
): Promise<unknown> {
  const { target } = context;
  const got = await target.send('getObject', { params });
  judgeStatus(context, OPERATION_CLAUSE.getObject, got, 200);
  const object = target.objectIn(got.json);
  context.judged(
    fetchedAsAsked(
      IDENTIFIED_BY.object,
      `${got.method} ${got.path}`,
      params.object_id,
      target.objectIdOf(object),
    ),
  );
  context.judged(systemFields(target.missingSystemFields(object)));
  return object;
}

/** Each item with its answer, the requests sent together. */
async function inParallel<T, R>(items: T[], send: (item: T) => Promise<R>): Promise<Array<[T, R]>> {
  const answers = await Promise.all(items.map(send));
  return items.map((item, i) => [item, answers[i]!]);
}

/** Another account's resource, as the clause judges see it from the full key. */
const THEIRS: CollectionState = { key: 'otherAccount', deleted: false };

export const resourceChecks = [
  defineCheck({
    id: 'collection.get',
    title: 'fetches listed collections by their identifier',
    level: 'spec',
    uses: ['listCollections', 'getCollection'],
    async run(context) {
      const { target, run } = context;
      const main = context.destructive ? await run.main() : undefined;
      // @note Over the whole list, newest and oldest: a get that answers one fixed collection
      // whatever the id is wrong for all but one of them. The run's own collections but the
      // main one are left out: other checks running meanwhile delete theirs.
      const listed = (await target.walkCollections()).filter(
        (summary) => !run.carries(summary) || target.collectionIdOf(summary) === main?.id,
      );
      const picked = listed.length <= 6 ? listed : [...listed.slice(0, 3), ...listed.slice(-3)];
      if (picked.length === 0)
        context.skip(`no identifiable collection to fetch${destructiveHint(context)}`);
      for (const summary of picked) {
        const id = target.collectionIdOf(summary);
        if (id === undefined) continue;
        const got = await target.send('getCollection', { params: { collection_id: id } });
        judgeStatus(context, OPERATION_CLAUSE.getCollection, got, 200);
        const collection = target.collectionIn(got.json);
        const returned = target.collectionIdOf(collection);
        if (returned === undefined)
          context.skip(
            `the get response has no id at ${target.description.collection.in}${target.description.collection.id}`,
          );
        context.judged(
          fetchedAsAsked(IDENTIFIED_BY.collection, `${got.method} ${got.path}`, id, returned),
        );
        if (context.profile)
          context.judged(
            metadataAsWritten(
              `collection ${id}: the metadata of its get`,
              [target.metadataOf(summary)],
              target.metadataOf(collection),
              'the list',
            ),
          );
      }
    },
  }),
  defineCheck({
    id: 'collection.isolation',
    usesWhereOffered: ['listObjects'],
    title:
      "keeps accounts apart: another account's collections and objects are neither listed nor fetchable",
    level: 'spec',
    needs: ['otherAccountKey'],
    uses: ['listCollections'],
    async run(context) {
      const { target, run } = context;
      const other = context.keys.otherAccount!;
      if (context.destructive && target.offers('createCollection')) {
        await run.main();
        // @note The other account gets data of its own to hide, named for this run.
        await run.createCollection('other', [{ title: `${run.uniqueWord} theirs` }], other);
      }
      const theirs = await target.walkCollections({ key: other });
      const mine = await target.walkCollections();
      const ids = (list: unknown[]) => list.map((s) => target.collectionIdOf(s));
      if (ids(theirs).includes(undefined) || ids(mine).includes(undefined))
        context.skip(
          `a summary has no id at ${target.description.collection.id}: the lists cannot be compared`,
        );
      const shared = ids(mine).filter((id) => ids(theirs).includes(id));
      context.judged(listedForOneAccount(shared.map(String)));
      if (theirs.length === 0 && mine.length === 0)
        context.skip(`neither account has a collection to hide${destructiveHint(context)}`);
      // @note Each account's collections fetched with the other's key: both ways round.
      const crossings: Array<[unknown, string | undefined, string]> = [
        ...theirs
          .slice(0, 3)
          .map((s): [unknown, string | undefined, string] => [s, undefined, 'another account']),
        ...mine
          .slice(0, 3)
          .map((s): [unknown, string | undefined, string] => [s, other, 'this account']),
      ];
      if (target.offers('getCollection'))
        for (const [[summary, , whose], got] of await inParallel(crossings, ([summary, key]) =>
          target.send('getCollection', {
            key,
            params: { collection_id: target.collectionIdOf(summary) },
          }),
        )) {
          judgeStatus(
            context,
            shownClause(THEIRS, 'full', OPERATION_CLAUSE.getCollection),
            got,
            404,
            `(${whose}'s collection)`,
            'notYours',
          );
          const name = target.nameOf(summary);
          context.judged(
            refusalShowsNothing(
              `${got.method} ${got.path} of ${whose}'s collection`,
              name && name.length >= 4 && got.text.includes(name) ? 'its name' : undefined,
              'another account',
            ),
          );
        }
      if (!target.offers('getObject')) return;
      const { objects } = await existingObjects(context, other, 6);
      const crossed = objects
        .filter((object) => canFetch(target, object))
        .slice(0, 3)
        .map((object) => ({
          object,
          key: undefined as string | undefined,
          word: contentWordsOf(target, object.shown)[0],
        }));
      if (context.destructive && target.offers('createCollection')) {
        const main = await run.main();
        crossed.push({
          object: { id: main.objectIds[0]!, collectionId: main.id, shown: undefined },
          key: other,
          word: main.word,
        });
      }
      for (const [{ key, word }, got] of await inParallel(crossed, ({ object, key }) =>
        target.send('getObject', {
          key,
          params: { collection_id: object.collectionId, object_id: object.id },
        }),
      )) {
        const whose = `${key ? 'this' : 'another'} account's object`;
        judgeStatus(
          context,
          shownClause(THEIRS, 'full', OPERATION_CLAUSE.getObject),
          got,
          404,
          `(${whose})`,
          'notYours',
        );
        context.judged(
          refusalShowsNothing(
            `${got.method} ${got.path} of ${whose}`,
            word && got.text.toLowerCase().includes(word) ? `its content ("${word}")` : undefined,
            'another account',
          ),
        );
      }
    },
  }),
  defineCheck({
    id: 'object.get',
    usesWhereOffered: ['listObjects'],
    title: 'fetches an object by its identifier with its complete data and its system fields',
    level: 'spec',
    uses: ['getObject'],
    async run(context) {
      const { target, run } = context;
      if (!context.destructive) {
        // @note Read-only: objects that exist, fetched and compared with what listed them.
        const { objects, why } = await existingObjects(context, undefined, 6);
        const fetchable = objects.filter((object) => canFetch(target, object)).slice(0, 3);
        if (fetchable.length === 0)
          context.skip(
            objects.length === 0
              ? why
              : `the objects found do not say their collection, which ${target.description.operations.getObject!.path} needs`,
          );
        for (const found of fetchable) {
          const fetched = await fetchObject(context, {
            collection_id: found.collectionId,
            object_id: found.id,
          });
          const lost = found.shown === undefined ? [] : wordsLost(found.shown, fetched);
          context.judged(wordsKept(found.id, lost));
        }
        return;
      }
      const content = {
        title: `${run.uniqueWord} complete`,
        nested: { list: [1, { deep: 'kept' }] },
      };
      const made = await run.createCollection('object', [content]);
      const object = await fetchObject(context, {
        collection_id: made.id,
        object_id: made.objectIds[0]!,
      });
      const located = target.contentAt(object);
      context.judged(
        contentAsWritten(
          [content],
          (sent) => holdsContent(object, sent, located),
          located?.content ?? object,
          'what was sent',
        ),
      );
    },
  }),
  defineCheck({
    id: 'collection.unknown',
    title: 'answers an unknown collection id with 404 collection_not_found',
    level: 'profile',
    uses: ['getCollection'],
    async run(context) {
      for (const id of [
        'col_00000000000000000000',
        runName(context.run.runId, 'none'),
        '../..',
        "x' OR '1'='1",
      ]) {
        const got = await context.target.send('getCollection', { params: { collection_id: id } });
        judgeStatus(context, OPERATION_CLAUSE.getCollection, got, 404);
        context.judged(
          problemCode(`${got.method} ${got.path}`, 'collection_not_found', got.json?.code),
        );
      }
    },
  }),
  defineCheck({
    id: 'object.unknown',
    title: 'answers an unknown object id with 404 object_not_found',
    level: 'profile',
    uses: ['listCollections', 'getObject'],
    async run(context) {
      const { target } = context;
      const collectionId = context.destructive
        ? (await context.run.main()).id
        : target.collectionIdOf((await target.walkCollections())[0]);
      if (!collectionId) context.skip(`no collection to look in${destructiveHint(context)}`);
      const got = await target.send('getObject', {
        params: { collection_id: collectionId, object_id: 'obj_00000000000000000000' },
      });
      judgeStatus(context, OPERATION_CLAUSE.getObject, got, 404, '(an unknown object)');
      context.judged(problemCode(`${got.method} ${got.path}`, 'object_not_found', got.json?.code));
    },
  }),
  defineCheck({
    id: 'object.system-fields-refused',
    title: 'refuses client-sent system fields with 400 and creates nothing',
    level: 'profile',
    needs: ['destructive'],
    uses: ['createCollection', 'createObject', 'listObjects'],
    async run(context) {
      const { target } = context;
      const made = await context.run.createCollection('fields');
      const params = { collection_id: made.id };
      for (const field of [
        { id: 'obj_aaaaaaaaaaaaaaaaaaaa' },
        { version: 99 },
        { created_at: '2000-01-01T00:00:00.000Z' },
      ]) {
        const sent = await target.send('createObject', {
          params,
          raw: JSON.stringify({ content: { x: 1 }, ...field }),
        });
        judgeStatus(context, DECISION.bodyFields, sent, 400, `with ${Object.keys(field)[0]}`);
      }
      const listed = await target.walk({ operation: 'listObjects', params });
      context.judged(
        refusedLeftNothing(DECISION.bodyFields, 'refused creates', listed.items.length),
      );
    },
  }),
];
