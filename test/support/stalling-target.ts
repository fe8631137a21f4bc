/**
 * A loopback target that stalls: it passes every request on to a working server (the kit's
 * mock), except the ones chosen, which it holds in one of the three ways a stalled deployment
 * does: accepting the request and sending nothing, sending its headers and then nothing, or
 * trickling its body a byte at a time. So a run can make data first, and what its clean-up does
 * after the stall is meaningful.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type StallForm = 'silent' | 'headers' | 'trickle';

export interface StallingTarget {
  url: string;
  /** When (performance.now()) the first chosen request began to stall, if one did. */
  readonly stalledAt: number | undefined;
  /** Requests the target passed on to the working server, by method. */
  readonly passed: number;
  close(): Promise<void>;
}

/** How often a trickled body gets its next byte: faster than any deadline a test sets. */
const DRIP_MS = 250;

export async function startStallingTarget(
  upstream: string,
  options: {
    form: StallForm;
    /** Whether to stall this request (asked once for each, in the order they arrive). */
    stalls: (request: IncomingMessage) => boolean;
  },
): Promise<StallingTarget> {
  let stalledAt: number | undefined;
  let passed = 0;
  const drips = new Set<NodeJS.Timeout>();
  const stall = (response: ServerResponse) => {
    stalledAt ??= performance.now();
    if (options.form === 'silent') return;
    response.writeHead(200, { 'content-type': 'application/json', 'content-length': '100000' });
    response.flushHeaders();
    if (options.form === 'headers') return;
    const drip = setInterval(() => response.write(' '), DRIP_MS);
    drips.add(drip);
    response.on('close', () => {
      clearInterval(drip);
      drips.delete(drip);
    });
  };
  const pass = async (request: IncomingMessage, response: ServerResponse) => {
    passed += 1;
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const headers = new Headers();
    for (const [name, value] of Object.entries(request.headers))
      if (typeof value === 'string' && !['host', 'connection', 'content-length'].includes(name))
        headers.set(name, value);
    const answer = await fetch(`${upstream}${request.url ?? '/'}`, {
      method: request.method,
      headers,
      body: chunks.length > 0 ? Buffer.concat(chunks) : undefined,
    });
    const body = Buffer.from(await answer.arrayBuffer());
    const out = Object.fromEntries(answer.headers);
    delete out['content-length'];
    delete out['content-encoding'];
    delete out['transfer-encoding'];
    response.writeHead(answer.status, out);
    response.end(body);
  };
  const server = createServer((request, response) => {
    if (options.stalls(request)) return stall(response);
    // @note A client that gives up (a stalled run ending) aborts its request mid-way: dropped.
    pass(request, response).catch(() => response.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    get stalledAt() {
      return stalledAt;
    },
    get passed() {
      return passed;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const drip of drips) clearInterval(drip);
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
