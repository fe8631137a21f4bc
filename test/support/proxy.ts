/**
 * A loopback proxy in front of a target, for tests that need a target with one thing changed: a
 * header form refused, an answer reshaped, a client killed at a chosen request.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What reached the proxy: the request line and its body as text. */
interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

/** An answer from the proxy itself, or a change to the target's answer. */
export interface Intercept {
  /** Answer without asking the target. */
  before?(request: Seen): { status: number; body: string } | undefined;
  /** Rewrite the target's JSON body (return it unchanged to keep it). */
  after?(request: Seen, status: number, json: unknown): unknown;
  /**
   * Rewrite the target's body as text: for answers no JSON.stringify can write (nested
   * 100,000 levels deep). Applied after `after`.
   */
  afterText?(request: Seen, status: number, text: string): string;
  /** Called once the answer has been sent. */
  sent?(request: Seen, status: number): void;
  /** Holds a request until the promise it returns settles: a moment chosen by the test. */
  hold?(request: Seen): Promise<unknown> | undefined;
  /** Holds every request this long before passing it on: a target that far away. */
  delayMs?: number;
}

export interface RunningProxy {
  url: string;
  close(): Promise<void>;
}

export async function startProxy(upstream: string, intercept: Intercept): Promise<RunningProxy> {
  const server = createServer((request, response) => {
    // @note A client that gives up (an interrupted run) aborts its request mid-way: dropped.
    handle(request, response).catch(() => response.destroy());
  });
  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    if (intercept.delayMs) await new Promise((resolve) => setTimeout(resolve, intercept.delayMs));
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const seen: Seen = {
      method: request.method ?? 'GET',
      url: request.url ?? '/',
      headers: request.headers,
      body: Buffer.concat(chunks).toString('utf8'),
    };
    await intercept.hold?.(seen);
    const own = intercept.before?.(seen);
    if (own) {
      response.writeHead(own.status, { 'content-type': 'application/json' });
      response.end(own.body, () => intercept.sent?.(seen, own.status));
      return;
    }
    const headers = new Headers();
    for (const [name, value] of Object.entries(request.headers))
      if (typeof value === 'string' && !['host', 'connection', 'content-length'].includes(name))
        headers.set(name, value);
    const answer = await fetch(`${upstream}${seen.url}`, {
      method: seen.method,
      headers,
      body: chunks.length > 0 ? seen.body : undefined,
    });
    let body = await answer.text();
    if (intercept.after && answer.headers.get('content-type')?.includes('json') && body) {
      body = JSON.stringify(intercept.after(seen, answer.status, JSON.parse(body)));
    }
    if (intercept.afterText) body = intercept.afterText(seen, answer.status, body);
    const out = Object.fromEntries(answer.headers);
    delete out['content-length'];
    delete out['content-encoding'];
    delete out['transfer-encoding'];
    response.writeHead(answer.status, out);
    response.end(body, () => intercept.sent?.(seen, answer.status));
  };
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
