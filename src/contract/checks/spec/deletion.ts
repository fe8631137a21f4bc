import { defineCheck, ensure, type CheckContext } from '../../check.ts';
import { hitIds } from './search.ts';

const NEEDED = ['createCollection', 'deleteCollection', 'getCollection'] as const;

/**
 * Creates a collection with two objects holding a fresh word, sees every URL answer 200 first,
 * deletes it, and returns what it held. A "gone" afterwards means something only because the same
 * URL answered 200 before: a wrong path answers 404 too.
 */
async function createSeeAndDelete(context: CheckContext, what: string) {
  const { target, run } = context;
  for (const needed of NEEDED) if (!target.offers(needed)) context.skip(target.missing(needed));
  const word = `${run.uniqueWord}${what.replace(/[^a-z0-9]/g, '')}`;
  const made = await run.createCollection(what, [
    { title: `${word} one` },
    { title: `${word} two` },
  ]);
  const params = { collection_id: made.id };
  const before = await target.send('getCollection', { params });
  ensure(
    before.status === 200,
    `${before.method} ${before.path} answered ${before.status} before the delete, not 200`,
  );
  const objects = target.offers('getObject') ? made.objectIds : [];
  for (const objectId of objects) {
    const got = await target.send('getObject', { params: { ...params, object_id: objectId } });
    ensure(
      got.status === 200,
      `${got.method} ${got.path} answered ${got.status} before the delete, not 200`,
    );
  }
  const searchable = target.offers('search') ? await hitIds(context, word) : [];
  const deleted = await target.send('deleteCollection', { params });
  ensure(
    deleted.status >= 200 && deleted.status < 300,
    `${deleted.method} ${deleted.path} answered ${deleted.status}`,
  );
  run.forget(made.id);
  return { made, word, objects, searchable, params };
}

function goneStatuses(context: CheckContext): string {
  return context.target.description.statuses.gone.join(' or ');
}

export const specDeletionChecks = [
  defineCheck({
    id: 'delete.collection',
    title: 'removes a deleted collection permanently: it answers "gone" and is never listed again',
    clauses: ['DEL-1', 'DEL-3'],
    level: 'spec',
    needs: ['destructive'],
    async run(context) {
      const { target } = context;
      const { made, params } = await createSeeAndDelete(context, 'deleted');
      for (const when of ['right after the delete', 'after a walk of the list']) {
        const got = await target.send('getCollection', { params });
        ensure(
          target.isGone(got.status),
          `${got.method} ${got.path} answered ${got.status} ${when}, not ${goneStatuses(context)}`,
        );
        if (target.offers('listCollections')) {
          const ids = (await target.walkCollections({ pageSize: 2 })).map((s) =>
            target.collectionIdOf(s),
          );
          ensure(
            !ids.includes(made.id),
            `the deleted collection ${made.id} is still listed ${when}`,
          );
        }
      }
    },
  }),
  defineCheck({
    id: 'delete.cascade',
    title: "removes a deleted collection's objects with it: gone by id and from search",
    clauses: ['DEL-2', 'DEL-3'],
    level: 'spec',
    needs: ['destructive'],
    async run(context) {
      const { target } = context;
      const { made, word, objects, searchable, params } = await createSeeAndDelete(
        context,
        'cascade',
      );
      if (objects.length === 0 && searchable.length === 0)
        context.skip(
          'the target description offers neither getObject nor search to see objects by',
        );
      for (const objectId of objects) {
        const got = await target.send('getObject', { params: { ...params, object_id: objectId } });
        ensure(
          target.isGone(got.status),
          `${got.method} ${got.path} of an object of the deleted collection answered ${got.status}, not ${goneStatuses(context)}`,
        );
      }
      if (searchable.length > 0) {
        const after = await hitIds(context, word);
        const left = after.filter((id) => made.objectIds.includes(id));
        ensure(
          left.length === 0,
          `a search still finds ${left[0]}, an object of the deleted collection`,
        );
      }
    },
  }),
];
