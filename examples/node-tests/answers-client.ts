/** The code under test: a tiny client of the Answers API, as an application would have. */
const BASE_URL = 'https://answers.example.com/api/answers/v1';

export class AnswersError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
  ) {
    super(`${status} ${code}`);
  }
}

async function call<T>(key: string, path: string, init: RequestInit = {}): Promise<T> {
  const response = await fetch(`${BASE_URL}${path}`, {
    ...init,
    headers: {
      authorization: `Bearer ${key}`,
      'content-type': 'application/json',
      ...init.headers,
    },
  });
  if (!response.ok) {
    const problem = (await response.json()) as { code: string };
    throw new AnswersError(response.status, problem.code);
  }
  return (response.status === 204 ? undefined : await response.json()) as T;
}

export const listCollectionNames = async (key: string) =>
  (await call<{ data: Array<{ name: string }> }>(key, '/collections?limit=100')).data.map(
    (c) => c.name,
  );

export const deleteCollection = (key: string, id: string) =>
  call<void>(key, `/collections/${id}`, { method: 'DELETE' });

export const search = async (key: string, query: string) =>
  (
    await call<{ total: number }>(key, '/search', {
      method: 'POST',
      body: JSON.stringify({ query }),
    })
  ).total;

export interface Collection {
  id: string;
  name: string;
  metadata: Record<string, unknown>;
  object_count: number;
}

export const createCollection = (key: string, name: string, metadata: Record<string, unknown>) =>
  call<Collection>(key, '/collections', {
    method: 'POST',
    body: JSON.stringify({ name, metadata }),
  });

export const getCollection = (key: string, id: string) =>
  call<Collection>(key, `/collections/${id}`);

export const addObject = (key: string, collectionId: string, content: Record<string, unknown>) =>
  call<{ id: string }>(key, `/collections/${collectionId}/objects`, {
    method: 'POST',
    body: JSON.stringify({ content }),
  });

export const findIn = async (key: string, query: string, collectionIds: string[]) =>
  (
    await call<{ data: Array<{ object: { id: string } }> }>(key, '/search', {
      method: 'POST',
      body: JSON.stringify(
        collectionIds.length ? { query, collection_ids: collectionIds } : { query },
      ),
    })
  ).data.map((hit) => hit.object.id);
