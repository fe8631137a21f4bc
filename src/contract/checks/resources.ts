import { defineCheck, destructiveHint, ensure, type CheckContext } from '../check.ts';
import { runName } from '../target-api/run-name.ts';
import type { Target } from '../target-api/target.ts';
import { canFetch, contentWordsOf, existingObjects, wordsLost } from './existing.ts';

/** The object inside a get response, checked to be the one asked for, with its system fields. */
async function fetchObject(
  context: CheckContext,
  params: { collection_id?: string | undefined; object_id: string },
): Promise<unknown> {
  const { target } = context;
  const got = await target.send('getObject', { params });
  ensure(got.status === 200, `${got.method} ${got.path} answered ${got.status}, not 200`);
  const object = target.objectIn(got.json);
  ensure(
    target.objectIdOf(object) === params.object_id,
    `${got.method} ${got.path} returned object ${target.objectIdOf(object)}`,
  );
  const missing = target.missingSystemFields(object);
  ensure(
    missing.length === 0,
    `${got.method} ${got.path}: the object lacks the system field(s) ${missing.join(', ')}`,
  );
  return object;
}

/** Each item with its answer, the requests sent together. */
async function inParallel<T, R>(items: T[], send: (item: T) => Promise<R>): Promise<Array<[T, R]>> {
  const answers = await Promise.all(items.map(send));
  return items.map((item, i) => [item, answers[i]!]);
}

/** The "not yours" statuses, for messages. */
const notYours = (target: Target) => target.statuses.notYours.join(', ');

export const resourceChecks = [
  defineCheck({
    id: 'collection.get',
    title: 'fetches listed collections by their identifier',
    clauses: ['COLL-GET-1', 'COLL-1'],
    profileClauses: ['GAP-COLL-GET'],
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
        ensure(got.status === 200, `${got.method} ${got.path} answered ${got.status}, not 200`);
        const collection = target.collectionIn(got.json);
        const returned = target.collectionIdOf(collection);
        if (returned === undefined)
          context.skip(
            `the get response has no id at ${target.description.collection.in}${target.description.collection.id}`,
          );
        ensure(returned === id, `${got.method} ${got.path} returned collection ${returned}`);
        if (context.profile)
          ensure(
            JSON.stringify(target.metadataOf(collection)) ===
              JSON.stringify(target.metadataOf(summary)),
            `collection ${id}: metadata differs between list and get`,
          );
      }
    },
  }),
  defineCheck({
    id: 'collection.isolation',
    usesWhereOffered: ['listObjects'],
    title:
      "keeps accounts apart: another account's collections and objects are neither listed nor fetchable",
    clauses: ['ISO-1', 'AUTH-2'],
    profileClauses: ['GAP-ISOLATION'],
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
      ensure(shared.length === 0, `collection ${shared[0]} is listed for both accounts`);
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
          ensure(
            target.isNotYours(got.status),
            `${got.method} ${got.path} of ${whose}'s collection answered ${got.status}, not one of ${notYours(target)}`,
          );
          const name = target.nameOf(summary);
          ensure(
            !name || name.length < 4 || !got.text.includes(name),
            `${got.method} ${got.path} of ${whose}'s collection leaked its name`,
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
        ensure(
          target.isNotYours(got.status),
          `${got.method} ${got.path} of ${key ? 'this' : 'another'} account's object answered ${got.status}, not one of ${notYours(target)}`,
        );
        ensure(
          !word || !got.text.toLowerCase().includes(word),
          `${got.method} ${got.path} of ${key ? 'this' : 'another'} account's object leaked its content ("${word}")`,
        );
      }
    },
  }),
  defineCheck({
    id: 'object.get',
    usesWhereOffered: ['listObjects'],
    title: 'fetches an object by its identifier with its complete data and its system fields',
    clauses: ['OBJ-2', 'OBJ-3', 'OBJ-GET-1'],
    profileClauses: ['GAP-OBJ-FIELDS', 'GAP-OBJ-RESP', 'GAP-CONTENT'],
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
          ensure(
            lost.length === 0,
            `object ${found.id}, fetched, lacks words its listing showed: ${lost.slice(0, 5).join(', ')}`,
          );
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
      for (const part of [`${run.uniqueWord} complete`, '"deep":"kept"', '[1,'])
        ensure(
          JSON.stringify(object).includes(part),
          `the fetched object lost part of its content (${part})`,
        );
    },
  }),
  defineCheck({
    id: 'collection.unknown',
    title: 'answers an unknown collection id with 404 collection_not_found',
    clauses: ['GAP-IDS', 'GAP-ERR-CODES'],
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
        ensure(got.status === 404, `${got.method} ${got.path} answered ${got.status}, not 404`);
        ensure(
          got.json?.code === 'collection_not_found',
          `${got.method} ${got.path} answered code ${got.json?.code}`,
        );
      }
    },
  }),
  defineCheck({
    id: 'object.unknown',
    title: 'answers an unknown object id with 404 object_not_found',
    clauses: ['GAP-IDS', 'GAP-ERR-CODES'],
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
      ensure(
        got.status === 404 && got.json?.code === 'object_not_found',
        `an unknown object answered ${got.status} ${got.json?.code}`,
      );
    },
  }),
  defineCheck({
    id: 'object.system-fields-refused',
    title: 'refuses client-sent system fields with 400 and creates nothing',
    clauses: ['OBJ-3', 'GAP-BODY-FIELDS'],
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
        ensure(
          sent.status === 400,
          `${sent.method} ${sent.path} with ${Object.keys(field)[0]} answered ${sent.status}, not 400`,
        );
      }
      const listed = await target.walk({ operation: 'listObjects', params });
      ensure(
        listed.items.length === 0,
        `refused creates left ${listed.items.length} object(s) behind`,
      );
    },
  }),
];
