import { defineCheck, ensure, type CheckContext } from '../check.ts';
import { itemsOf } from '../data.ts';

/** Creates a collection with two objects holding a fresh word, deletes it, and returns what it held. */
async function createAndDelete(context: CheckContext, suffix: string) {
  const word = `${context.data.uniqueWord}${suffix.replace(/[^a-z0-9]/g, '')}`;
  const data = await context.data.createCollection(suffix, [
    { title: `${word} one` },
    { title: `${word} two` },
  ]);
  const response = await context.http.request('DELETE', `/collections/${data.collection.id}`, {
    operationId: 'deleteCollection',
  });
  ensure(
    response.status >= 200 && response.status < 300,
    `DELETE /collections/${data.collection.id} answered ${response.status}`,
  );
  context.data.untrack(data.collection.id);
  return { ...data, word, deleteStatus: response.status };
}

export const deletionChecks = [
  defineCheck({
    id: 'delete.collection.profile',
    title: 'removes a deleted collection permanently: not fetchable, not listed, and it stays gone',
    clauses: ['DEL-1', 'DEL-3', 'GAP-STATES'],
    level: 'profile',
    needs: ['destructive'],
    async run(context) {
      const { collection } = await createAndDelete(context, 'deleted');
      for (const attempt of ['right after the delete', 'after a list']) {
        const got = await context.http.request('GET', `/collections/${collection.id}`, {
          operationId: 'getCollection',
        });
        ensure(
          got.status >= 400 && got.status < 500,
          `GET of the deleted collection ${attempt} answered ${got.status}`,
        );
        if (!context.specOnly)
          ensure(
            got.status === 404,
            `GET of the deleted collection ${attempt} answered ${got.status}, not 404`,
          );
        const listed =
          itemsOf(
            (
              await context.http.request('GET', '/collections?limit=100', {
                operationId: 'listCollections',
              })
            ).json,
          ) ?? [];
        ensure(
          !listed.some((c: any) => c.id === collection.id),
          `the deleted collection is still listed ${attempt}`,
        );
      }
    },
  }),
  defineCheck({
    id: 'delete.cascade.profile',
    title: "removes a deleted collection's objects: not fetchable, not found by search",
    clauses: ['DEL-2', 'DEL-3'],
    level: 'profile',
    needs: ['destructive'],
    async run(context) {
      const { collection, objects, word } = await createAndDelete(context, 'cascade');
      for (const object of objects) {
        const got = await context.http.request(
          'GET',
          `/collections/${collection.id}/objects/${object.id}`,
          { operationId: 'getObject' },
        );
        ensure(
          got.status === 404,
          `object ${object.id} of the deleted collection answered ${got.status}, not 404`,
        );
      }
      const found = await context.http.request('POST', '/search', {
        body: { query: word },
        operationId: 'searchObjects',
      });
      const hits = (found.json?.data ?? []).filter((hit: any) =>
        objects.some((o) => o.id === hit.object?.id),
      );
      ensure(
        hits.length === 0,
        `search still finds ${hits.length} object(s) of the deleted collection`,
      );
    },
  }),
  defineCheck({
    id: 'delete.twice.profile',
    title: 'does not report success for deleting a collection twice',
    clauses: ['DEL-1', 'GAP-DEL-RESP'],
    level: 'profile',
    needs: ['destructive'],
    async run(context) {
      const { collection } = await createAndDelete(context, 'twice');
      const again = await context.http.request('DELETE', `/collections/${collection.id}`, {
        operationId: 'deleteCollection',
      });
      ensure(
        again.status >= 400 && again.status < 500,
        `the second DELETE answered ${again.status}`,
      );
      if (!context.specOnly)
        ensure(again.status === 404, `the second DELETE answered ${again.status}, not 404`);
    },
  }),
];
