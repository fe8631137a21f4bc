import { defineCheck, ensure } from '../check.ts';

export const responseChecks = [
  defineCheck({
    id: 'responses.conform',
    title: 'answers with the documented status, content type, headers and body schema',
    clauses: [
      'GAP-MEDIA',
      'GAP-ERR-BODY',
      'GAP-COLL-FIELDS',
      'GAP-OBJ-FIELDS',
      'GAP-PAGE-FIELDS',
      'GAP-SEARCH-RESP',
    ],
    level: 'profile',
    async run(context) {
      // Every request below is validated against openapi.yaml by the client; a violation fails here.
      const { collection, objects, word } = await context.data.main(context);
      await context.http.request('GET', '/collections', { operationId: 'listCollections' });
      await context.http.request('GET', `/collections/${collection.id}`, {
        operationId: 'getCollection',
      });
      await context.http.request('GET', `/collections/${collection.id}/objects`, {
        operationId: 'listObjects',
      });
      await context.http.request('GET', `/collections/${collection.id}/objects/${objects[0].id}`, {
        operationId: 'getObject',
      });
      await context.http.request('POST', '/search', {
        body: { query: word },
        operationId: 'searchObjects',
      });
      await context.http.request('GET', '/collections', {
        key: null,
        operationId: 'listCollections',
      });
      await context.http.request('GET', '/collections/col_00000000000000000000', {
        operationId: 'getCollection',
      });
      const bad = await context.http.request('GET', '/collections?limit=0', {
        operationId: 'listCollections',
      });
      ensure(
        bad.headers.get('content-type')?.startsWith('application/problem+json'),
        `an error is ${bad.headers.get('content-type')}, not application/problem+json`,
      );
    },
  }),
];
