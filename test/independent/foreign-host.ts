/**
 * Another origin on a second loopback address (127.0.0.2): what a next link to "production" or
 * a public host name reaches. It answers nothing useful and records every request, so a test can
 * prove no key ever reached it.
 */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ForeignHost {
  /** e.g. `http://127.0.0.2:40123` */
  origin: string;
  requests: Array<{ method: string; url: string; headers: IncomingHttpHeaders }>;
  /** The requests that carried a key, in either header. */
  credentialed(): Array<{ method: string; url: string }>;
  close(): Promise<void>;
}

export async function startForeignHost(): Promise<ForeignHost> {
  const requests: ForeignHost['requests'] = [];
  const server = createServer((request, response) => {
    requests.push({
      method: request.method ?? '',
      url: request.url ?? '',
      headers: request.headers,
    });
    response.writeHead(404, { 'content-type': 'application/json' });
    response.end('{"error":"this is another host"}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.2', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.2:${port}`,
    requests,
    credentialed: () =>
      requests
        .filter(
          (r) =>
            r.headers.authorization !== undefined || r.headers['x-answers-api-key'] !== undefined,
        )
        .map(({ method, url }) => ({ method, url })),
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
