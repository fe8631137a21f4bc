import { defineCheck, ensure } from '../check.ts';
import { wordsOf } from '../data.ts';

export const searchChecks = [
  defineCheck({
    id: 'search.finds.profile',
    title: 'finds an object by a word it contains',
    clauses: ['SEARCH-1', 'GAP-SEARCH-REQ', 'GAP-SEARCH-RESP'],
    level: 'profile',
    async run(context) {
      const { objects, word } = await context.data.main(context);
      const found = await context.http.request('POST', '/search', {
        body: { query: word, limit: 100 },
        operationId: 'searchObjects',
      });
      ensure(found.status === 200, `search answered ${found.status}`);
      const ids = found.json.data.map((hit: any) => hit.object.id);
      ensure(
        ids.includes(objects[0].id),
        `searching "${word}" does not find object ${objects[0].id}, which contains it`,
      );
      ensure(found.json.total >= 1, `search for "${word}" reports total ${found.json.total}`);
    },
  }),
  defineCheck({
    id: 'search.relevance',
    title: 'returns only objects that contain a query word',
    clauses: ['SEARCH-1', 'GAP-SEARCH-MATCH'],
    level: 'profile',
    async run(context) {
      const { word } = await context.data.main(context);
      const found = await context.http.request('POST', '/search', {
        body: { query: word, limit: 100 },
        operationId: 'searchObjects',
      });
      const strays = found.json.data.filter(
        (hit: any) => !wordsOf(hit.object.content).includes(word),
      );
      ensure(
        strays.length === 0,
        `searching "${word}" returned ${strays.length} object(s) without it, e.g. ${strays[0]?.object?.id}`,
      );
      const scores = found.json.data.map((hit: any) => hit.score);
      ensure(
        scores.every((s: number, i: number) => i === 0 || s <= scores[i - 1]),
        'hits are not ordered by score',
      );
    },
  }),
  defineCheck({
    id: 'search.filter',
    title: 'restricts hits to the collections named in collection_ids',
    clauses: ['GAP-SEARCH-REQ'],
    level: 'profile',
    async run(context) {
      const { collection, word } = await context.data.main(context);
      const found = await context.http.request('POST', '/search', {
        body: { query: word, collection_ids: [collection.id] },
        operationId: 'searchObjects',
      });
      const outside = found.json.data.filter((hit: any) => hit.collection_id !== collection.id);
      ensure(
        outside.length === 0,
        `the filter to ${collection.id} returned hits from ${outside.map((h: any) => h.collection_id).join(', ')}`,
      );
      if (context.destructive) {
        const other = await context.data.createCollection('filter', [
          { title: 'no run word here' },
        ]);
        const elsewhere = await context.http.request('POST', '/search', {
          body: { query: word, collection_ids: [other.collection.id] },
          operationId: 'searchObjects',
        });
        ensure(
          elsewhere.json.data.length === 0,
          `searching "${word}" only in a collection without it found ${elsewhere.json.data.length} hits`,
        );
      }
    },
  }),
  defineCheck({
    id: 'search.isolation.profile',
    title: "never returns another account's objects",
    clauses: ['ISO-1', 'GAP-ISOLATION'],
    level: 'profile',
    needs: ['otherAccountKey'],
    async run(context) {
      const { objects, word } = await context.data.main(context);
      const found = await context.http.request('POST', '/search', {
        key: context.keys.otherAccount,
        body: { query: word, limit: 100 },
        operationId: 'searchObjects',
      });
      const leaked = (found.json?.data ?? []).filter((hit: any) =>
        objects.some((o) => o.id === hit.object?.id),
      );
      ensure(
        leaked.length === 0,
        `another account's search finds ${leaked.length} object(s) of this account`,
      );
    },
  }),
];
