/**
 * The traffic of the soak: one cycle of mixed requests (reads, search, create/patch/delete of
 * objects, 401s, 400s, 404s), each with its expected status, driven over many connections with
 * autocannon; and the clean-up of what a cut-off cycle left behind.
 */
import autocannon from 'autocannon';
import { CONNECTIONS, KEY, PREFIX } from './settings.ts';

/** A page of a list, as far as the soak reads it. */
export interface Page {
  data: Array<{ id: string }>;
}

export async function api<T>(
  url: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<T> {
  const response = await fetch(`${url}${PREFIX}${path}`, {
    method,
    headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(10_000),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path} -> ${response.status} ${text}`);
  return (text ? JSON.parse(text) : undefined) as T;
}

export interface Step {
  name: string;
  expect: number;
  request: autocannon.Request;
}

const JSON_HEADERS = { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' };

/** One cycle of the mixed traffic; each connection runs it over and over. */
export function steps(collectionId: string, objectId: string, soakId: string): Step[] {
  const soak = `${PREFIX}/collections/${soakId}/objects`;
  const withCreated =
    (method: 'GET' | 'PATCH' | 'DELETE', body?: string) =>
    (request: autocannon.Request, context: { id?: string }) =>
      context.id ? { ...request, method, path: `${soak}/${context.id}`, body } : undefined;
  return [
    {
      name: 'list collections',
      expect: 200,
      request: { method: 'GET', path: `${PREFIX}/collections?limit=20` },
    },
    {
      name: 'get collection',
      expect: 200,
      request: { method: 'GET', path: `${PREFIX}/collections/${collectionId}` },
    },
    {
      name: 'get object',
      expect: 200,
      request: { method: 'GET', path: `${PREFIX}/collections/${collectionId}/objects/${objectId}` },
    },
    {
      name: 'list objects',
      expect: 200,
      request: { method: 'GET', path: `${PREFIX}/collections/${collectionId}/objects?limit=10` },
    },
    {
      name: 'search',
      expect: 200,
      request: {
        method: 'POST',
        path: `${PREFIX}/search`,
        body: JSON.stringify({ query: 'billing security', limit: 10 }),
      },
    },
    {
      name: 'create object',
      expect: 201,
      request: {
        method: 'POST',
        path: soak,
        body: JSON.stringify({ content: { title: 'soak object', tags: ['soak', 'load'] } }),
        onResponse: (status, body, context: { id?: string }) => {
          context.id = status === 201 ? (JSON.parse(body) as { id: string }).id : undefined;
        },
      },
    },
    {
      name: 'get created object',
      expect: 200,
      request: { setupRequest: withCreated('GET') as autocannon.Request['setupRequest'] },
    },
    {
      name: 'patch created object',
      expect: 200,
      request: {
        setupRequest: withCreated(
          'PATCH',
          JSON.stringify({ content: { seen: true } }),
        ) as autocannon.Request['setupRequest'],
      },
    },
    {
      name: 'delete created object',
      expect: 204,
      request: { setupRequest: withCreated('DELETE') as autocannon.Request['setupRequest'] },
    },
    {
      name: '401 without a key',
      expect: 401,
      request: { method: 'GET', path: `${PREFIX}/collections`, headers: {} },
    },
    {
      name: '400 bad limit',
      expect: 400,
      request: { method: 'GET', path: `${PREFIX}/collections?limit=0` },
    },
    {
      name: '400 malformed JSON',
      expect: 400,
      request: { method: 'POST', path: `${PREFIX}/collections`, body: '{"name":' },
    },
    {
      name: '404 unknown collection',
      expect: 404,
      request: { method: 'GET', path: `${PREFIX}/collections/col_00000000000000000000` },
    },
  ];
}

interface Driven {
  result: autocannon.Result;
  /** Responses whose status was not the step's expected one, by step name. */
  unexpected: Map<string, number>;
  stoppedByLimit: boolean;
}

/** Drives `amount` requests of the mixed traffic, stopping at `limitMs` at the latest. */
export async function drive(url: string, cycle: Step[], amount: number, limitMs: number) {
  const unexpected = new Map<string, number>();
  const requests = cycle.map((step) => {
    const previous = step.request.onResponse as
      ((status: number, body: string, context: object, headers: unknown) => void) | undefined;
    return {
      headers: JSON_HEADERS,
      ...step.request,
      onResponse: (status: number, body: string, context: object, headers: unknown) => {
        if (status !== step.expect) unexpected.set(step.name, (unexpected.get(step.name) ?? 0) + 1);
        previous?.(status, body, context, headers);
      },
    } as autocannon.Request;
  });
  let stoppedByLimit = false;
  let timer: NodeJS.Timeout | undefined;
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      { url, connections: CONNECTIONS, amount, timeout: 10, requests },
      (error, done) => (error ? reject(error) : resolve(done)),
    );
    timer = setTimeout(() => {
      stoppedByLimit = true;
      instance.stop();
    }, limitMs);
  }).finally(() => clearTimeout(timer));
  return { result, unexpected, stoppedByLimit } satisfies Driven;
}

/** Deletes whatever a cut-off cycle left in the soak collection, so memory compares like for like. */
export async function cleanUp(url: string, soakId: string): Promise<number> {
  let deleted = 0;
  for (let round = 0; round < 100; round++) {
    const page = await api<Page>(url, 'GET', `/collections/${soakId}/objects?limit=100`);
    if (page.data.length === 0) break;
    for (const object of page.data) {
      await api<undefined>(url, 'DELETE', `/collections/${soakId}/objects/${object.id}`);
      deleted++;
    }
  }
  return deleted;
}
