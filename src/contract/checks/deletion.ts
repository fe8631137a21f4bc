import { CheckFailure, defineCheck, ensure, type CheckContext } from '../check.ts';
import { hitIds } from './search.ts';

/**
 * Creates a collection with two objects holding a fresh word, sees every URL answer 200 first,
 * deletes it, and returns what it held. A "gone" afterwards means something only because the same
 * URL answered 200 before: a wrong path answers 404 too.
 */
async function createSeeAndDelete(context: CheckContext, what: string) {
  const { target, run } = context;
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
  // @note Never a delete of someone else's collection: a create that answered an existing id
  // shows that collection's name here.
  const other = run.answeredOther(target.collectionIn(before.json), made.name);
  ensure(
    other === undefined,
    `${before.method} ${before.path} shows a collection named "${other}", not the "${made.name}" the run created: not deleted`,
  );
  const objects = target.offers('getObject') ? made.objectIds : [];
  for (const objectId of objects) {
    const got = await target.send('getObject', { params: { ...params, object_id: objectId } });
    ensure(
      got.status === 200,
      `${got.method} ${got.path} answered ${got.status} before the delete, not 200`,
    );
  }
  // @note Waits (within --settle) for the search to show the new objects; one that never does
  // is search.finds' failure, and leaves this check to judge by getObject alone.
  const searchable = target.offers('search')
    ? await context.settle
        .until(async () => {
          const ids = await hitIds(context, word);
          ensure(ids.length > 0, `a search for "${word}" finds none of the objects just made`);
          return ids;
        })
        .catch((error: unknown) => {
          if (error instanceof CheckFailure) return [];
          throw error;
        })
    : [];
  const deleted = await target.send('deleteCollection', { params });
  ensure(
    deleted.status >= 200 && deleted.status < 300,
    `${deleted.method} ${deleted.path} answered ${deleted.status}`,
  );
  run.forget(made.id);
  return { made, word, objects, searchable, params };
}

function goneStatuses(context: CheckContext): string {
  return context.target.statuses.gone.join(' or ');
}

const NEEDED = ['createCollection', 'deleteCollection', 'getCollection'] as const;

export const deletionChecks = [
  defineCheck({
    id: 'delete.collection',
    title: 'removes a deleted collection permanently: it answers "gone" and is never listed again',
    clauses: ['DEL-1', 'DEL-3'],
    profileClauses: ['GAP-STATES'],
    level: 'spec',
    needs: ['destructive'],
    uses: [...NEEDED],
    async run(context) {
      const { target } = context;
      const { made, params } = await createSeeAndDelete(context, 'deleted');
      for (const when of ['right after the delete', 'after a walk of the list']) {
        await context.settle.until(async () => {
          const got = await target.send('getCollection', { params });
          ensure(
            target.isGone(got.status),
            `${got.method} ${got.path} answered ${got.status} ${when}, not ${goneStatuses(context)}`,
          );
        });
        if (target.offers('listCollections'))
          await context.settle.until(async () => {
            const ids = (await target.walkCollections()).map((s) => target.collectionIdOf(s));
            ensure(
              !ids.includes(made.id),
              `the deleted collection ${made.id} is still listed ${when}`,
            );
          });
      }
    },
  }),
  defineCheck({
    id: 'delete.cascade',
    title: "removes a deleted collection's objects with it: gone by id and from search",
    clauses: ['DEL-2', 'DEL-3'],
    level: 'spec',
    needs: ['destructive'],
    uses: [...NEEDED],
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
      for (const objectId of objects)
        await context.settle.until(async () => {
          const got = await target.send('getObject', {
            params: { ...params, object_id: objectId },
          });
          ensure(
            target.isGone(got.status),
            `${got.method} ${got.path} of an object of the deleted collection answered ${got.status}, not ${goneStatuses(context)}`,
          );
        });
      if (searchable.length > 0)
        await context.settle.until(async () => {
          const after = await hitIds(context, word);
          const left = after.filter((id) => made.objectIds.includes(id));
          ensure(
            left.length === 0,
            `a search still finds ${left[0]}, an object of the deleted collection`,
          );
        });
    },
  }),
  defineCheck({
    id: 'delete.twice',
    title: 'does not report success for deleting a collection twice',
    clauses: ['DEL-1', 'GAP-DEL-RESP'],
    level: 'profile',
    needs: ['destructive'],
    uses: [...NEEDED],
    async run(context) {
      const { params } = await createSeeAndDelete(context, 'twice');
      const again = await context.target.send('deleteCollection', { params });
      ensure(
        again.status === 404,
        `the second ${again.method} ${again.path} answered ${again.status}, not 404`,
      );
    },
  }),
];
