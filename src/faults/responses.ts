/** Faults of how any answer is labelled and shaped: media types, schemas, problem bodies. */
import type { MockResponse } from '../core/http.ts';
import { isObject, parseBody, rewriteEachWhen, type Fault, type JsonObject } from './kit.ts';

/** The name the content-type header has in `response`, if it has one. */
function contentTypeName(response: MockResponse): string | undefined {
  return Object.keys(response.headers).find((h) => h.toLowerCase() === 'content-type');
}

export const RESPONSE_FAULTS = {
  'wrong-content-type': {
    description: 'Successful JSON responses are labelled content-type: text/plain.',
    clauses: ['GAP-MEDIA'],
    wrap: () => async (request, next) => {
      const result = await next(request);
      const { response } = result;
      if (response.status < 200 || response.status > 299) return result;
      const name = contentTypeName(response);
      if (!name || !/^application\/json\b/i.test(response.headers[name] ?? '')) return result;
      return {
        ...result,
        response: { ...response, headers: { ...response.headers, [name]: 'text/plain' } },
      };
    },
  },

  'schema-violation': {
    description: 'Collection representations carry object_count as a string (e.g. "24").',
    clauses: ['COLL-2', 'GAP-COLL-FIELDS'],
    wrap: () => async (request, next) => {
      const stringify = (collection: JsonObject) =>
        typeof collection.object_count === 'number'
          ? { ...collection, object_count: String(collection.object_count) }
          : collection;
      const single = ['getCollection', 'createCollection', 'updateCollection'];
      return rewriteEachWhen(await next(request), 'listCollections', single, [200, 201], stringify);
    },
  },

  'error-body-not-problem': {
    description:
      'Error responses keep their status and headers but are application/json { "error": "<detail>" } instead of application/problem+json with a code.',
    clauses: ['GAP-ERR-BODY', 'GAP-ERR-CODES', 'GAP-MEDIA'],
    wrap: () => async (request, next) => {
      const result = await next(request);
      const { response } = result;
      const name = contentTypeName(response);
      if (!name || !/^application\/problem\+json\b/i.test(response.headers[name] ?? '')) {
        return result;
      }
      const problemBody = parseBody(response.body);
      const detail = isObject(problemBody) ? problemBody.detail : undefined;
      return {
        ...result,
        response: {
          ...response,
          headers: { ...response.headers, [name]: 'application/json' },
          body: JSON.stringify({ error: typeof detail === 'string' ? detail : 'error' }),
        },
      };
    },
  },
} as const satisfies Record<string, Fault>;
