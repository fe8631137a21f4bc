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
