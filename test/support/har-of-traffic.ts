/** A HAR file of an app's traffic, for replay's tests. */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { IndependentServer } from '../independent/server.ts';

/**
 * A HAR of an app's traffic with the independent server, for `replay --against-mock` (as DevTools
 * would export it: every header, cookies, the bodies as text), made by sending the app's requests
 * and writing down each of its 9 exchanges.
 */
export async function harOfTraffic(server: IndependentServer, dir: string): Promise<string> {
  const entries: unknown[] = [];
  const send = async (method: string, path: string, key: string, body?: unknown) => {
    const headers = {
      authorization: `Bearer ${key}`,
      cookie: 'session=s3cr3t',
      'content-type': 'application/json',
    };
    const response = await fetch(`${server.url}${path}`, {
      method,
      headers,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    entries.push({
      pageref: 'page_1',
      startedDateTime: new Date(0).toISOString(),
      time: 1,
      request: {
        method,
        url: `${server.url}${path}`,
        httpVersion: 'HTTP/1.1',
        headers: Object.entries(headers).map(([name, value]) => ({ name, value })),
        cookies: [{ name: 'session', value: 's3cr3t' }],
        queryString: [],
        ...(body === undefined
          ? {}
          : { postData: { mimeType: 'application/json', text: JSON.stringify(body) } }),
        headersSize: -1,
        bodySize: -1,
      },
      response: {
        status: response.status,
        statusText: response.statusText,
        httpVersion: 'HTTP/1.1',
        headers: [...response.headers].map(([name, value]) => ({ name, value })),
        cookies: [],
        content: { size: text.length, mimeType: response.headers.get('content-type') ?? '', text },
        redirectURL: '',
        headersSize: -1,
        bodySize: -1,
      },
      cache: {},
      timings: { send: 0, wait: 1, receive: 0 },
    });
    return text ? (JSON.parse(text) as Record<string, any>) : undefined;
  };
  const { full, readonly } = server.keys;
  const created = await send('POST', '/api/answers/collections', full, {
    title: 'Recipes',
    meta: { team: 'kitchen' },
  });
  const id = created!.result.collectionId as string;
  await send('POST', `/api/answers/collections/${id}/objects`, full, {
    body: { title: 'Slow-cooked ragù' },
  });
  await send('POST', `/api/answers/collections/${id}/objects`, full, {
    body: { title: 'Quick pesto' },
  });
  await send('GET', `/api/answers/collections/${id}`, full);
  await send('GET', '/v1/collections?size=100', full);
  await send('POST', '/api/answers/query', full, { q: 'ragù', scope: [id] });
  await send('POST', '/api/answers/collections', readonly, { title: 'Nope', meta: {} });
  await send('DELETE', `/api/answers/collections/${id}`, full);
  await send('GET', `/api/answers/collections/${id}`, full);
  const file = join(dir, `traffic-${server.url.split(':').pop()}.har`);
  await writeFile(
    file,
    JSON.stringify({
      log: {
        version: '1.2',
        creator: { name: 'test', version: '1' },
        pages: [
          {
            id: 'page_1',
            title: 'Recipes page',
            startedDateTime: new Date(0).toISOString(),
            pageTimings: {},
          },
        ],
        entries,
      },
    }),
  );
  return file;
}
