/** Faults of single collections and objects: which one a get answers, and what it holds. */
import { json } from '../core/http.ts';
import { toCollection } from '../core/store/records.ts';
import { problem } from '../core/problem.ts';
import {
  accountIds,
  fullKeyOf,
  isObject,
  operationIdOf,
  problemCode,
  requestJson,
  rewriteEachWhen,
  rewriteWhen,
  routeOf,
  withJsonBody,
  withKey,
  type Fault,
  type JsonObject,
} from './kit.ts';

export const RESOURCE_FAULTS = {
  'collection-lookup-off-by-one': {
    description:
      "Getting a collection by id answers the caller's collection created right after it (the newest one answers 404).",
    clauses: ['COLL-GET-1', 'GAP-COLL-GET'],
    wrap: (state) => async (request, next) => {
      const result = await next(request);
      if (operationIdOf(result) !== 'getCollection' || result.response.status !== 200) {
        return result;
      }
      const { store } = state;
      const mine = store.collectionsOf(result.accountId!);
      const id = routeOf(request)?.params.collection_id ?? '';
      const at = mine.findIndex((collection) => collection.id === id);
      if (at < 0) return result;
      const after = mine[at + 1];
      const response = after
        ? json(200, toCollection(after, store.objectCount(after.id)))
        : problem('collection_not_found', `No collection ${id} in this account.`);
      return { ...result, response };
    },
  },

  'cross-account-leak': {
    description:
      "Getting another account's collection by id answers 200 with its data instead of 404.",
    clauses: ['ISO-1', 'AUTH-2', 'GAP-ISOLATION'],
    wrap: (state) => async (request, next) => {
      const result = await next(request);
      if (operationIdOf(result) !== 'getCollection' || result.accountId === undefined) {
        return result;
      }
      if (problemCode(result.response) !== 'collection_not_found') return result;
      const id = routeOf(request)?.params.collection_id ?? '';
      for (const account of accountIds(state)) {
        if (account === result.accountId || !state.store.findCollection(account, id)) {
          continue;
        }
        const key = fullKeyOf(state, account);
        if (!key) continue;
        const retried = await next(withKey(request, key));
        if (retried.response.status === 200) return { ...result, response: retried.response };
      }
      return result;
    },
  },

  'system-fields-missing': {
    description: 'Objects returned by get, list and create lack created_at and version.',
    clauses: ['OBJ-3', 'OBJ-GET-1', 'GAP-OBJ-FIELDS', 'GAP-OBJ-RESP'],
    wrap: () => async (request, next) => {
      const strip = ({ created_at: _created, version: _version, ...rest }: JsonObject) => rest;
      const single = ['getObject', 'createObject'];
      return rewriteEachWhen(await next(request), 'listObjects', single, [200, 201], strip);
    },
  },

  'client-system-fields-accepted': {
    description:
      'Unknown and system fields (id, version, created_at, ...) in create bodies are dropped silently and the create answers 201, instead of 400 validation_failed.',
    clauses: ['GAP-BODY-FIELDS'],
    wrap: () => {
      const documented: Record<string, readonly string[]> = {
        createCollection: ['name', 'metadata'],
        createObject: ['content'],
      };
      return async (request, next) => {
        const fields = documented[routeOf(request)?.operation.operationId ?? ''];
        const body = requestJson(request);
        if (!fields || !isObject(body)) return next(request);
        const kept = Object.fromEntries(Object.entries(body).filter(([k]) => fields.includes(k)));
        return next(withJsonBody(request, kept));
      };
    },
  },

  'object-nested-content-dropped': {
    description:
      'Getting an object by id answers its content without nested values: arrays and objects inside content are dropped (list and search keep them).',
    clauses: ['OBJ-GET-1', 'GAP-CONTENT', 'GAP-OBJ-RESP'],
    wrap: () => async (request, next) =>
      rewriteWhen(await next(request), ['getObject'], [200], (object) => ({
        ...object,
        content: Object.fromEntries(
          Object.entries(isObject(object.content) ? object.content : {}).filter(
            ([, value]) => typeof value !== 'object' || value === null,
          ),
        ),
      })),
  },
} as const satisfies Record<string, Fault>;
