/**
 * Security of the mock itself (issue "Hardening", part 5): the control API stays apart. It can be
 * turned off, is never reachable through the API prefixes or encoded spellings, and needs no key
 * while the API does.
 */
import { describe, expect, it } from 'vitest';
import { rawRequest } from '../raw-http.ts';
import { API, FULL, serversClosedAfterEach } from './servers.ts';

const { start } = serversClosedAfterEach();

/** Requests that try to reach the control API through the API prefixes or encoded spellings. */
const SMUGGLED: Array<[method: string, target: string]> = [
  ['POST', `${API}/__mock/reset`],
  ['POST', '/api/answers/__mock/reset'],
  ['POST', '/v1/__mock/reset'],
  ['GET', '/v1/__mock/state'],
  ['GET', `${API}/__mock/state`],
  ['PUT', `${API}/__mock/state`],
  ['POST', '/%5F%5Fmock/reset'],
  ['POST', '/%5f%5fmock/reset'],
  ['POST', '/__mock%2Freset'],
  ['POST', '/%2F__mock/reset'],
  ['POST', `${API}/../../__mock/reset`],
  ['POST', `${API}/%2E%2E/%2E%2E/__mock/reset`],
  ['POST', '/v1/..%2F__mock/reset'],
  ['POST', '//__mock/reset'],
  ['POST', '/__MOCK/reset'],
  ['POST', '/__mock/reset/'],
  ['POST', '/__mock/./reset'],
];

async function deleteFirstCollection(url: string): Promise<string> {
  const list = await fetch(`${url}${API}/collections?limit=1`, {
    headers: { authorization: `Bearer ${FULL}` },
  });
  const id = ((await list.json()) as { data: Array<{ id: string }> }).data[0]!.id;
  const deleted = await fetch(`${url}${API}/collections/${id}`, {
    method: 'DELETE',
    headers: { authorization: `Bearer ${FULL}` },
  });
  expect(deleted.status).toBe(204);
  return id;
}

async function collectionStatus(url: string, id: string): Promise<number> {
  const response = await fetch(`${url}${API}/collections/${id}`, {
    headers: { authorization: `Bearer ${FULL}` },
  });
  return response.status;
}

describe('the control API', () => {
  it('is off with control: false', async () => {
    const running = await start({ control: false });
    const id = await deleteFirstCollection(running.url);
    for (const [method, path] of [
      ['POST', '/__mock/reset'],
      ['GET', '/__mock/state'],
      ['PUT', '/__mock/state'],
      ['GET', '/__mock/clock'],
      ['POST', '/__mock/failures'],
    ] as const) {
      const response = await fetch(`${running.url}${path}`, {
        method,
        body: method === 'GET' ? undefined : '{}',
      });
      expect(response.status, `${method} ${path}`).toBe(404);
      expect(response.headers.get('content-type')).toBe('application/problem+json');
      expect(await response.json()).toMatchObject({ code: 'not_found' });
    }
    expect(await collectionStatus(running.url, id)).toBe(404); // nothing was reset
  });

  it.each([true, false])(
    'is never reachable through an API prefix or an encoded path (control: %s)',
    async (control) => {
      const running = await start({ control });
      const id = await deleteFirstCollection(running.url);
      for (const [method, target] of SMUGGLED) {
        for (const headers of [[], [['Authorization', `Bearer ${FULL}`]]] as const) {
          const response = await rawRequest(running.url, {
            method,
            target,
            headers: [...headers],
            body: method === 'GET' ? undefined : '{}',
          });
          expect(response.status, `${method} ${target}`).toBe(404);
          expect(response.headers['content-type']).toBe('application/problem+json');
          expect(JSON.parse(response.text)).toMatchObject({ code: 'not_found' });
          expect(response.text).not.toContain('"accounts"');
        }
      }
      expect(await collectionStatus(running.url, id)).toBe(404); // nothing was reset
    },
  );

  it('needs no key under /__mock, while API paths do', async () => {
    const running = await start();
    const state = await fetch(`${running.url}/__mock/state`);
    expect(state.status).toBe(200);
    expect(await state.json()).toHaveProperty('collections');
    expect((await fetch(`${running.url}/__mock/clock`)).status).toBe(200);
    for (const prefix of ['/api/answers/v1', '/api/answers', '/v1']) {
      const response = await fetch(`${running.url}${prefix}/collections`);
      expect(response.status).toBe(401);
      expect(await response.json()).toMatchObject({ code: 'missing_credentials' });
    }
    const id = await deleteFirstCollection(running.url);
    expect(
      (
        await fetch(`${running.url}/__mock/reset`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
        })
      ).status,
    ).toBe(204);
    expect(await collectionStatus(running.url, id)).toBe(200);
  });
});
