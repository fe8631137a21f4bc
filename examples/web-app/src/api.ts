import type { components, paths } from 'answers-mock-kit';
import createClient from 'openapi-fetch';
import { pageSize } from './config.ts';

export type Collection = components['schemas']['Collection'];
export type AnswersObject = components['schemas']['Object'];
export type SearchHit = components['schemas']['SearchHit'];
type Problem = components['schemas']['Problem'];

const REASONS: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  404: 'Not Found',
  409: 'Conflict',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
};

/** A non-2xx answer, with its RFC 9457 problem body: "401 Unauthorized: The API key is not valid." */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly problem: Partial<Problem> | undefined,
  ) {
    const reason = REASONS[status] ?? 'Error';
    super(`${status} ${reason}: ${problem?.detail ?? problem?.title ?? 'no details'}`);
  }
}

/** Returns the data of a 2xx answer of openapi-fetch, or throws an {@link ApiError}. */
async function unwrap<T>(call: Promise<{ data?: T; error?: unknown; response: Response }>) {
  const { data, error, response } = await call;
  if (!response.ok) throw new ApiError(response.status, error as Partial<Problem> | undefined);
  return data as T;
}

/** The calls the app makes, typed by the contract's `paths`; the key is read on every request. */
export function createApi(baseUrl: string, apiKey: () => string) {
  const client = createClient<paths>({ baseUrl });
  client.use({
    onRequest: ({ request }) => {
      request.headers.set('authorization', `Bearer ${apiKey()}`);
      return request;
    },
  });
  const collection = (id: string) => ({ path: { collection_id: id } });
  return {
    listCollections: (cursor?: string) =>
      unwrap(client.GET('/collections', { params: { query: { limit: pageSize, cursor } } })),
    getCollection: (id: string) =>
      unwrap(client.GET('/collections/{collection_id}', { params: collection(id) })),
    deleteCollection: (id: string) =>
      unwrap(client.DELETE('/collections/{collection_id}', { params: collection(id) })),
    listObjects: (id: string) =>
      unwrap(
        client.GET('/collections/{collection_id}/objects', {
          params: { ...collection(id), query: { limit: 10 } },
        }),
      ),
    getObject: (id: string, objectId: string) =>
      unwrap(
        client.GET('/collections/{collection_id}/objects/{object_id}', {
          params: { path: { collection_id: id, object_id: objectId } },
        }),
      ),
    search: (query: string) => unwrap(client.POST('/search', { body: { query, limit: 10 } })),
  };
}

export type Api = ReturnType<typeof createApi>;
