import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMock, type AnswersMock } from '../../src/index.ts';
import { startServer, type RunningServer } from '../../src/node/server.ts';
import { rawRequest } from '../hardening/raw-http.ts';

// Found by the hardening catalogue: a key header sent twice with the SAME value was refused with
// 401 malformed_credentials, although GAP-AUTH-FORM only refuses repeats with different values
// (adapters join repeated fields with ", ", and the core read the joined value as one token).
const KEY = 'answers_test_full_acme';
const PATH = '/api/answers/v1/collections';

let mock: AnswersMock;
let running: RunningServer;
beforeAll(async () => {
  mock = await createMock();
  running = await startServer({ mock, port: 0, quiet: true });
});
afterAll(() => running.close());

async function coreRequest(headers: Array<[string, string]>) {
  const init = new Headers();
  for (const [name, value] of headers) init.append(name, value);
  const { response } = await mock.handle({
    method: 'GET',
    path: PATH,
    query: new URLSearchParams(),
    headers: init,
  });
  return response;
}

describe('a key header repeated', () => {
  it('with equal values is that value, in the core', async () => {
    expect(
      (
        await coreRequest([
          ['authorization', `Bearer ${KEY}`],
          ['authorization', `Bearer ${KEY}`],
        ])
      ).status,
    ).toBe(200);
    expect(
      (
        await coreRequest([
          ['x-answers-api-key', KEY],
          ['x-answers-api-key', KEY],
        ])
      ).status,
    ).toBe(200);
  });

  it('with different values stays 401 malformed_credentials, in the core', async () => {
    for (const headers of [
      [
        ['authorization', `Bearer ${KEY}`],
        ['authorization', 'Bearer answers_test_full_globex'],
      ],
      [
        ['x-answers-api-key', KEY],
        ['x-answers-api-key', 'answers_test_full_globex'],
      ],
      [
        ['authorization', `Bearer ${KEY}`],
        ['authorization', ''],
      ],
    ] as Array<Array<[string, string]>>) {
      const response = await coreRequest(headers);
      expect(response.status).toBe(401);
      expect(JSON.parse(response.body!)).toMatchObject({ code: 'malformed_credentials' });
    }
  });

  it('over real HTTP: equal repeats 200, different repeats 401', async () => {
    const same = await rawRequest(running.url, {
      method: 'GET',
      target: PATH,
      headers: [
        ['Authorization', `Bearer ${KEY}`],
        ['Authorization', `Bearer ${KEY}`],
      ],
    });
    expect(same.status).toBe(200);
    const different = await rawRequest(running.url, {
      method: 'GET',
      target: PATH,
      headers: [
        ['X-Answers-API-Key', KEY],
        ['X-Answers-API-Key', 'answers_test_full_globex'],
      ],
    });
    expect(different.status).toBe(401);
    expect(JSON.parse(different.text)).toMatchObject({ code: 'malformed_credentials' });
  });
});
