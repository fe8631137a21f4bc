import { defineCheck, judgeStatus, type CheckContext } from '../check.ts';
import { OPERATION_CLAUSE, requestClause, visibleTo } from '../judges/clause-of.ts';
import type { CollectionState, ObjectState } from '../judges/clause-of.ts';
import { refusedToDelete } from '../judges/ownership.ts';
import { allShown, nothingHidden } from '../judges/reads.ts';
import { Divergence, uphold } from '../judges/verdict.ts';
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
  judgeStatus(context, OPERATION_CLAUSE.getCollection, before, 200, 'before the delete');
  // @note Never a delete of someone else's collection: a create that answered an existing id
  // shows that collection's name here.
  const other = run.answeredOther(target.collectionIn(before.json), made.name);
  if (other !== undefined)
    context.judged(
      refusedToDelete(
        `${before.method} ${before.path} shows a collection named "${other}", not the "${made.name}" the run created: not deleted`,
      ),
    );
  const objects = target.offers('getObject') ? made.objectIds : [];
  for (const objectId of objects) {
    const got = await target.send('getObject', { params: { ...params, object_id: objectId } });
    judgeStatus(context, OPERATION_CLAUSE.getObject, got, 200, 'before the delete');
  }
  const searchable = (await searchShows(context, word, made.objectIds, 1)) ?? [];
  const deleted = await target.send('deleteCollection', { params });
  judgeStatus(context, OPERATION_CLAUSE.deleteCollection, deleted, 200);
  run.forget(made.id);
  // What a correct target must now show of it: deleted, and its objects with it.
  const gone: CollectionState = { key: 'full', deleted: true };
  const itsObjects: ObjectState = { key: 'full', deleted: false, collection: gone };
  return { made, word, objects, searchable, params, gone, itsObjects };
}

/**
 * Waits (within --settle) for a search for `word` to show `objectIds` before a delete: the ids it
 * shows, or undefined where the target offers no search or the search never shows them (that is
 * search.finds' failure, and leaves the check to judge by getObject alone).
 */
async function searchShows(
  context: CheckContext,
  word: string,
  objectIds: readonly string[],
  atLeast?: number,
): Promise<string[] | undefined> {
  if (!context.target.offers('search')) return undefined;
  return context.settle
    .until(async () => {
      const ids = await hitIds(context, word);
      uphold(allShown(OPERATION_CLAUSE.search, `a search for "${word}"`, objectIds, ids, atLeast));
      return ids;
    }, 'search')
    .catch((error: unknown) => {
      if (error instanceof Divergence) return undefined;
      throw error;
    });
}

const NEEDED = ['createCollection', 'deleteCollection', 'getCollection'] as const;

/** A read by the full key (`operation`'s) shows none of what a correct target deleted. */
function noneShown(
  context: CheckContext,
  read: string,
  operation: 'listCollections' | 'search',
  sightings: Array<{ name: string; state: CollectionState | ObjectState; shown: boolean }>,
): void {
  context.judged(
    nothingHidden(
      read,
      sightings,
      (state) => visibleTo(state, 'full'),
      'full',
      OPERATION_CLAUSE[operation],
      'deleted',
    ),
  );
}

export const deletionChecks = [
  defineCheck({
    id: 'delete.object',
    title: 'removes a deleted object permanently: gone by id and from search',
    level: 'spec',
    needs: ['destructive'],
    uses: ['createCollection', 'createObject', 'deleteObject'],
    async run(context) {
      const { target, run } = context;
      const word = `${run.uniqueWord}deletedobject`;
      const made = await run.createCollection('object-deleted', [{ title: `${word} one` }]);
      const params = { collection_id: made.id, object_id: made.objectIds[0]! };
      if (!target.offers('getObject') && !target.offers('search'))
        context.skip(
          'the target description offers neither getObject nor search to see objects by',
        );
      // @note Seen first where it will be looked for: a "gone" afterwards means something only
      // because the same URL (or search) showed it before.
      if (target.offers('getObject'))
        judgeStatus(
          context,
          OPERATION_CLAUSE.getObject,
          await target.send('getObject', { params }),
          200,
          'before the delete',
        );
      const searchable = (await searchShows(context, word, made.objectIds)) !== undefined;
      const deleted = await target.send('deleteObject', { params });
      judgeStatus(context, OPERATION_CLAUSE.deleteObject, deleted, 200);
      const gone: ObjectState = {
        key: 'full',
        deleted: true,
        collection: { key: 'full', deleted: false },
      };
      if (target.offers('getObject'))
        await context.settle.until(async () => {
          const got = await target.send('getObject', { params });
          const clause = requestClause(gone, 'full', false, OPERATION_CLAUSE.getObject);
          judgeStatus(context, clause, got, 404, 'after the delete', 'gone');
        }, 'cascade');
      if (searchable)
        await context.settle.until(async () => {
          const after = await hitIds(context, word);
          noneShown(context, `a search for "${word}"`, 'search', [
            {
              name: `the deleted object ${params.object_id}`,
              state: gone,
              shown: after.includes(params.object_id),
            },
          ]);
        }, 'search');
    },
  }),
  defineCheck({
    id: 'delete.collection',
    title: 'removes a deleted collection permanently: it answers "gone" and is never listed again',
    level: 'spec',
    needs: ['destructive'],
    uses: [...NEEDED],
    async run(context) {
      const { target } = context;
      const { made, params, gone } = await createSeeAndDelete(context, 'deleted');
      for (const when of ['right after the delete', 'after a walk of the list']) {
        await context.settle.until(async () => {
          const got = await target.send('getCollection', { params });
          const clause = requestClause(gone, 'full', false, OPERATION_CLAUSE.getCollection);
          judgeStatus(context, clause, got, 404, when, 'gone');
        }, 'cascade');
        if (target.offers('listCollections'))
          await context.settle.until(async () => {
            const ids = (await target.walkCollections()).map((s) => target.collectionIdOf(s));
            noneShown(context, `the list ${when}`, 'listCollections', [
              {
                name: `the deleted collection ${made.id}`,
                state: gone,
                shown: ids.includes(made.id),
              },
            ]);
          });
      }
    },
  }),
  defineCheck({
    id: 'delete.cascade',
    title: "removes a deleted collection's objects with it: gone by id and from search",
    level: 'spec',
    needs: ['destructive'],
    uses: [...NEEDED],
    async run(context) {
      const { target } = context;
      const { made, word, objects, searchable, params, itsObjects } = await createSeeAndDelete(
        context,
        'cascade',
      );
      if (objects.length === 0 && searchable.length === 0)
        context.skip(
          'the target description offers neither getObject nor search to see objects by',
        );
      const clause = requestClause(itsObjects, 'full', false, OPERATION_CLAUSE.getObject);
      for (const objectId of objects)
        await context.settle.until(async () => {
          const got = await target.send('getObject', {
            params: { ...params, object_id: objectId },
          });
          judgeStatus(context, clause, got, 404, '(an object of the deleted collection)', 'gone');
        }, 'cascade');
      if (searchable.length > 0)
        await context.settle.until(async () => {
          const after = await hitIds(context, word);
          noneShown(
            context,
            `a search for "${word}"`,
            'search',
            made.objectIds.map((id) => ({
              name: `${id} (an object of the deleted collection)`,
              state: itsObjects,
              shown: after.includes(id),
            })),
          );
        }, 'search');
    },
  }),
  defineCheck({
    id: 'delete.twice',
    title: 'does not report success for deleting a collection twice',
    level: 'profile',
    needs: ['destructive'],
    uses: [...NEEDED],
    async run(context) {
      const { params, gone } = await createSeeAndDelete(context, 'twice');
      const again = await context.target.send('deleteCollection', { params });
      const clause = requestClause(gone, 'full', true, OPERATION_CLAUSE.deleteCollection);
      judgeStatus(context, clause, again, 404, '(the second delete)', 'gone');
    },
  }),
];
