/**
 * The files of the separate project that installs the packed package: its package.json and
 * tsconfig, a typed openapi-fetch client (and a deliberate type error), and a vitest suite on
 * `answers-mock-kit/node`.
 */

/** The files, for an app on msw `major` (2 and 3 name the unhandled-request option differently). */
export function consumerFiles(major: string): Record<string, string> {
  const listen =
    major === '3' ? "{ onUnhandledFrame: 'error' }" : "{ onUnhandledRequest: 'error' }";
  return {
    ...CONSUMER_FILES,
    'test/mock.test.ts': CONSUMER_FILES['test/mock.test.ts']!.replace('LISTEN_OPTIONS', listen),
  };
}

const CONSUMER_FILES: Record<string, string> = {
  'package.json': `${JSON.stringify({ name: 'consumer', private: true, type: 'module' })}\n`,
  'tsconfig.json': `${JSON.stringify({
    compilerOptions: {
      target: 'ES2022',
      lib: ['ES2022', 'DOM'],
      module: 'NodeNext',
      moduleResolution: 'NodeNext',
      strict: true,
      noEmit: true,
      // Checks the published .d.ts files too: every type they import must resolve.
      skipLibCheck: false,
      types: [],
    },
    include: ['types'],
  })}\n`,
  'types/client.ts': `import createClient from 'openapi-fetch';
import type { components, paths } from 'answers-mock-kit';

const client = createClient<paths>({ baseUrl: 'http://127.0.0.1:4010/api/answers/v1' });

export async function firstObjectCount(): Promise<number> {
  const { data, error } = await client.GET('/collections', {
    params: { query: { limit: 10 } },
    headers: { authorization: 'Bearer answers_test_full_acme' },
  });
  if (error) throw new Error(error.title);
  const count: number = data.data[0].object_count;
  return count;
}

export const collection: Pick<components['schemas']['Collection'], 'name'> = { name: 'FAQ' };
`,
  // A deliberate type error: the check above must be able to fail.
  'types/wrong.ts': `import createClient from 'openapi-fetch';
import type { paths } from 'answers-mock-kit';

const client = createClient<paths>({ baseUrl: 'http://127.0.0.1:4010/api/answers/v1' });
const { data } = await client.GET('/collections');
export const count: string | undefined = data?.data[0]?.object_count;
`,
  'test/mock.test.ts': `import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { setupAnswersServer } from 'answers-mock-kit/node';

const API = 'http://localhost/api/answers/v1';
const headers = {
  authorization: 'Bearer answers_test_full_acme',
  'content-type': 'application/json',
};

const { mock, server } = await setupAnswersServer({ now: '2026-01-01T00:00:00.000Z' });
beforeAll(() => server.listen(LISTEN_OPTIONS));
afterEach(() => mock.controls.reset());
afterAll(() => server.close());

async function search(query: string): Promise<{ total: number; data: Array<{ collection_id: string }> }> {
  const response = await fetch(\`\${API}/search\`, { method: 'POST', headers, body: JSON.stringify({ query }) });
  expect(response.status).toBe(200);
  return response.json();
}

it('lists collections, deletes one with its objects and searches', async () => {
  const listed = await fetch(\`\${API}/collections\`, { headers });
  expect(listed.status).toBe(200);
  const [first] = ((await listed.json()) as { data: Array<{ id: string }> }).data;
  expect(first?.id).toMatch(/^col_/);
  const created = await fetch(\`\${API}/collections/\${first!.id}/objects\`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ content: { title: 'zephyrine quokka' } }),
  });
  expect(created.status).toBe(201);
  expect(await search('zephyrine')).toMatchObject({ total: 1, data: [{ collection_id: first!.id }] });

  const deleted = await fetch(\`\${API}/collections/\${first!.id}\`, { method: 'DELETE', headers });
  expect(deleted.status).toBe(204);
  expect((await fetch(\`\${API}/collections/\${first!.id}\`, { headers })).status).toBe(404);
  expect((await search('zephyrine')).total).toBe(0);
});
`,
};
