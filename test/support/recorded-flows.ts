/**
 * Consumer tests recorded against the mock, each the flow of examples/node-tests/collections.test.ts,
 * for replay's tests and its bench: no test runner needed to make a recording of any size.
 */
import { recordingMock } from '../../src/core/recorder.ts';
import { createMock } from '../../src/index.ts';
import { startServer } from '../../src/node/server.ts';
import type { Recording } from '../../src/openapi/recording.ts';
import { DEV_KEYS } from '../../src/seed/dev-keys.ts';
import { emptyState } from '../../src/seed/empty-state.ts';

const FULL = 'answers_test_full_acme';

/**
 * A recording of `count` consumer tests, each the flow of examples/node-tests/collections.test.ts:
 * a collection made, two objects added, read back, listed, searched, a read-only write refused,
 * deleted and read once more (9 exchanges).
 */
export async function recordFlows(count: number): Promise<Recording> {
  const mock = await createMock({ initialState: emptyState() });
  let name = '';
  const recorder = recordingMock(
    mock,
    () => DEV_KEYS,
    () => name,
  );
  const server = await startServer({ mock: recorder.mock, port: 0, quiet: true });
  const api = `${server.url}/api/answers/v1`;
  const send = async (method: string, path: string, key: string, body?: unknown) => {
    const response = await fetch(`${api}${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return response.status === 204 ? undefined : ((await response.json()) as { id?: string });
  };
  try {
    for (let test = 0; test < count; test++) {
      name = `flows.test.ts > flow ${test}`;
      const { id } = (await send('POST', '/collections', FULL, {
        name: `Recipes ${test}`,
        metadata: { n: test },
      }))!;
      await send('POST', `/collections/${id}/objects`, FULL, {
        content: { title: `ragù ${test}` },
      });
      await send('POST', `/collections/${id}/objects`, FULL, { content: { title: 'pesto' } });
      await send('GET', `/collections/${id}`, FULL);
      await send('GET', '/collections?limit=100', FULL);
      await send('POST', '/search', FULL, { query: 'ragù', collection_ids: [id] });
      await send('POST', '/collections', 'answers_test_readonly_acme', {
        name: 'nope',
        metadata: {},
      });
      await send('DELETE', `/collections/${id}`, FULL);
      await send('GET', `/collections/${id}`, FULL);
    }
    return recorder.recording();
  } finally {
    await server.close();
  }
}
