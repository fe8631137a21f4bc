import { afterAll, beforeAll, expect, it } from 'vitest';
import { createMock } from '../../src/index.ts';
import { startServer, type RunningServer } from '../../src/node/server.ts';
import { rawRequest } from '../hardening/raw-http.ts';

// Found by the hardening security tests: the server set headersTimeout 5 s and requestTimeout
// 10 s, but Node only checks them every `connectionsCheckingInterval` (30 s by default), so a
// client that stalled mid-request was kept for 30 s. The interval is now 1 s. Here the timeouts
// themselves are lowered on the instance, so the check interval is what the test measures: the
// client gives up after 4 s, so a 408 at all means the server cut the stalled request first.
let running: RunningServer;
beforeAll(async () => {
  running = await startServer({ mock: await createMock(), port: 0, quiet: true });
  running.server.headersTimeout = 300;
  running.server.requestTimeout = 300;
});
afterAll(() => running.close());

it('disconnects a client that sends its headers and then stalls, within seconds', async () => {
  const response = await rawRequest(
    running.url,
    {
      method: 'POST',
      target: '/api/answers/v1/collections',
      headers: [
        ['Content-Type', 'application/json'],
        ['Content-Length', '100'],
      ],
      body: '{"name":',
    },
    { timeoutMs: 4_000 },
  );
  expect(response.status).toBe(408);
});

it('disconnects a client that never finishes its headers, within seconds', async () => {
  const response = await rawRequest(
    running.url,
    {
      method: 'GET',
      target: '/api/answers/v1/collections',
      // A header section that never ends.
      head: 'GET /api/answers/v1/collections HTTP/1.1\r\nHost: x\r\nX-Slow: a',
    },
    { timeoutMs: 4_000 },
  );
  expect(response.status).toBe(408);
});
