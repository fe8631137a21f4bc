import { defineCheck, destructiveHint, ensure } from '../check.ts';
import { itemsOf } from '../data.ts';

const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

export const resourceChecks = [
  defineCheck({
    id: 'collection.get.profile',
    title: 'fetches each listed collection by its identifier',
    clauses: ['COLL-GET-1', 'COLL-1'],
    level: 'profile',
    async run(context) {
      const listed =
        itemsOf(
          (await context.http.request('GET', '/collections', { operationId: 'listCollections' }))
            .json,
        ) ?? [];
      if (listed.length === 0)
        context.skip(`the target has no collection to fetch${destructiveHint(context)}`);
      for (const summary of listed.slice(0, 5)) {
        const response = await context.http.request(
          'GET',
          `/collections/${encodeURIComponent(summary.id)}`,
          { operationId: 'getCollection' },
        );
        ensure(
          response.status === 200,
          `GET /collections/${summary.id} answered ${response.status}, not 200`,
        );
        ensure(
          response.json?.id === summary.id,
          `GET /collections/${summary.id} returned id ${response.json?.id}`,
        );
        if (!context.specOnly) {
          ensure(
            JSON.stringify(response.json.metadata) === JSON.stringify(summary.metadata),
            `collection ${summary.id}: metadata differs between list and get`,
          );
        }
      }
    },
  }),
  defineCheck({
    id: 'collection.unknown',
    title: 'answers an unknown collection id with 404 collection_not_found',
    clauses: ['GAP-IDS', 'GAP-ERR-CODES'],
    level: 'profile',
    async run(context) {
      for (const id of [
        'col_00000000000000000000',
        `answers-contract-${context.data.runId}-none`,
        '..%2F..',
        "x'%20OR%20'1'%3D'1",
      ]) {
        const response = await context.http.request('GET', `/collections/${id}`, {
          operationId: 'getCollection',
        });
        ensure(
          response.status === 404,
          `GET /collections/${id} answered ${response.status}, not 404`,
        );
        ensure(
          response.json?.code === 'collection_not_found',
          `GET /collections/${id} answered code ${response.json?.code}`,
        );
      }
    },
  }),
  defineCheck({
    id: 'collection.isolation.profile',
    title: "hides another account's collections: not listed, not fetchable, nothing leaked",
    clauses: ['ISO-1', 'AUTH-2', 'GAP-ISOLATION'],
    level: 'profile',
    needs: ['otherAccountKey'],
    async run(context) {
      const other = context.keys.otherAccount!;
      let theirs =
        itemsOf((await context.http.request('GET', '/collections', { key: other })).json) ?? [];
      let createdId: string | undefined;
      if (theirs.length === 0 && context.destructive) {
        const created = await context.http.request('POST', '/collections', {
          key: other,
          body: { name: `answers-contract-${context.data.runId}-other` },
        });
        createdId = created.json?.id;
        theirs = createdId ? [created.json] : [];
      }
      if (theirs.length === 0)
        context.skip('the other account has no collection the run can see: give it one');
      try {
        const mine = (await context.data.walkCollections()).map((c) => c.id);
        for (const collection of theirs.slice(0, 5)) {
          ensure(
            !mine.includes(collection.id),
            `collection ${collection.id} of the other account is in this account's list`,
          );
          const response = await context.http.request(
            'GET',
            `/collections/${encodeURIComponent(collection.id)}`,
            { operationId: 'getCollection' },
          );
          ensure(
            response.status >= 400 && response.status < 500,
            `GET of another account's collection ${collection.id} answered ${response.status}`,
          );
          ensure(
            !response.text.includes(collection.name),
            `GET of another account's collection ${collection.id} leaked its name`,
          );
          if (!context.specOnly)
            ensure(
              response.status === 404,
              `GET of another account's collection answered ${response.status}, not 404 like an unknown id`,
            );
        }
      } finally {
        if (createdId)
          await context.http.request('DELETE', `/collections/${createdId}`, { key: other });
      }
    },
  }),
  defineCheck({
    id: 'object.get.profile',
    title: 'fetches an object with its complete data and well-formed system fields',
    clauses: ['OBJ-2', 'OBJ-3', 'OBJ-GET-1', 'GAP-OBJ-FIELDS', 'GAP-OBJ-RESP', 'GAP-CONTENT'],
    level: 'profile',
    async run(context) {
      const { collection, objects } = await context.data.main(context);
      for (const object of objects.slice(0, 3)) {
        const response = await context.http.request(
          'GET',
          `/collections/${collection.id}/objects/${object.id}`,
          { operationId: 'getObject' },
        );
        ensure(
          response.status === 200,
          `GET object ${object.id} answered ${response.status}, not 200`,
        );
        const got = response.json;
        ensure(got.id === object.id, `GET object ${object.id} returned id ${got.id}`);
        ensure(
          got.collection_id === collection.id,
          `object ${object.id} names collection ${got.collection_id}`,
        );
        for (const field of ['created_at', 'updated_at'])
          ensure(
            RFC3339.test(String(got[field])),
            `object ${object.id} has no RFC 3339 ${field}: ${got[field]}`,
          );
        ensure(
          Number.isInteger(got.version) && got.version >= 1,
          `object ${object.id} has no version >= 1: ${got.version}`,
        );
        ensure(
          got.content && typeof got.content === 'object',
          `object ${object.id} has no content object`,
        );
        ensure(
          JSON.stringify(got.content) === JSON.stringify(object.content),
          `object ${object.id}: content differs from what the list returned`,
        );
      }
    },
  }),
  defineCheck({
    id: 'object.unknown',
    title: 'answers an unknown object id with 404 object_not_found',
    clauses: ['GAP-IDS', 'GAP-ERR-CODES'],
    level: 'profile',
    async run(context) {
      const { collection } = await context.data.main(context);
      const response = await context.http.request(
        'GET',
        `/collections/${collection.id}/objects/obj_00000000000000000000`,
        { operationId: 'getObject' },
      );
      ensure(
        response.status === 404 && response.json?.code === 'object_not_found',
        `an unknown object answered ${response.status} ${response.json?.code}`,
      );
    },
  }),
  defineCheck({
    id: 'object.system-fields-refused',
    title: 'refuses client-sent system fields with 400 and creates nothing',
    clauses: ['OBJ-3', 'GAP-BODY-FIELDS'],
    level: 'profile',
    needs: ['destructive'],
    async run(context) {
      const { collection } = await context.data.createCollection('fields', []);
      const path = `/collections/${collection.id}/objects`;
      for (const field of [
        { id: 'obj_aaaaaaaaaaaaaaaaaaaa' },
        { version: 99 },
        { created_at: '2000-01-01T00:00:00.000Z' },
      ]) {
        const response = await context.http.request('POST', path, {
          body: { content: { x: 1 }, ...field },
          operationId: 'createObject',
        });
        ensure(
          response.status === 400,
          `POST ${path} with ${Object.keys(field)[0]} answered ${response.status}, not 400`,
        );
      }
      const listed = await context.data.walk(path, 'listObjects');
      ensure(listed.length === 0, `refused creates left ${listed.length} object(s) behind`);
    },
  }),
];
