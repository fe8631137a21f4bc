import { defineCheck } from '../check.ts';
import { problemMedia } from '../judges/document.ts';

export const responseChecks = [
  defineCheck({
    id: 'responses.conform',
    title: 'answers with the documented status, content type, headers and body schema',
    level: 'profile',
    uses: ['listCollections', 'getCollection', 'getObject', 'search'],
    async run(context) {
      // Every response below is validated against openapi.yaml (profile level); a violation fails here.
      const { target } = context;
      const listed = target.itemsOf((await target.send('listCollections')).json) ?? [];
      const collectionId = context.destructive
        ? (await context.run.main()).id
        : target.collectionIdOf(listed[0]);
      if (collectionId) {
        const params = { collection_id: collectionId };
        await target.send('getCollection', { params });
        if (target.offers('listObjects')) {
          const objects = await target.send('listObjects', { params });
          const objectId = target.objectIdOf(target.itemsOf(objects.json)?.[0]);
          if (objectId)
            await target.send('getObject', { params: { ...params, object_id: objectId } });
        }
      }
      await target.send('search', { body: { query: context.run.uniqueWord } });
      await target.send('listCollections', { key: null });
      await target.send('getCollection', { params: { collection_id: 'col_00000000000000000000' } });
      const { pageSize = 'limit' } = target.description.paging;
      const bad = await target.send('listCollections', { query: { [pageSize]: '0' } });
      context.judged(problemMedia(bad.headers.get('content-type')));
    },
  }),
];
