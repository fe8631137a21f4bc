/**
 * Security of the mock itself (issue "Hardening", part 5): request limits and slow-client
 * timeouts are set and enforced, and the server binds to loopback unless told otherwise.
 */
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { createMock } from '../../../src/index.ts';
import { startServer } from '../../../src/node/server.ts';
import { rawRequest } from '../raw-http.ts';
import { API, FULL, ROOT, serversClosedAfterEach } from './servers.ts';
import { mockBin } from '../../support/bins.ts';

const { start, started } = serversClosedAfterEach();

describe('request limits and timeouts', () => {
  it('lowers the slow-client timeouts and sets a header size limit', async () => {
    const { server } = await start();
    expect(server.requestTimeout).toBeGreaterThan(0);
    expect(server.requestTimeout).toBeLessThanOrEqual(10_000);
    expect(server.headersTimeout).toBeGreaterThan(0);
    expect(server.headersTimeout).toBeLessThanOrEqual(5_000);
    // @note Not in @types/node, but set by http.createServer from its options.
    expect((server as unknown as { maxHeaderSize: number }).maxHeaderSize).toBeLessThanOrEqual(
      16_384,
    );
    expect(server.keepAliveTimeout).toBeLessThanOrEqual(5_000);
  });

  it('answers a 20 KiB header with 431 and closes, without hanging', async () => {
    const running = await start();
    const response = await rawRequest(
      running.url,
      {
        method: 'GET',
        target: `${API}/collections`,
        headers: [
          ['Authorization', `Bearer ${FULL}`],
          ['X-Padding', 'p'.repeat(20 * 1024)],
        ],
      },
      { timeoutMs: 3_000 },
    );
    // Node's parser answers 431 with `Connection: close` and no body, before the mock is reached.
    expect(response.status).toBe(431);
    expect(response.headers.connection).toBe('close');
    expect(response.text).toBe('');
    const after = await fetch(`${running.url}${API}/collections`, {
      headers: { authorization: `Bearer ${FULL}` },
    });
    expect(after.status).toBe(200);
  });

  it('disconnects a client that sends its headers and then stalls', async () => {
    const running = await start();
    // @note server.ts takes no timeout options; the instance's values are lowered so the test
    // does not wait 10 s. The 408 is Node's own answer when the request timeout fires: it proves
    // the timeout is enforced (without it, rawRequest gives up after 4 s and the test fails).
    running.server.requestTimeout = 300;
    running.server.headersTimeout = 300;
    const response = await rawRequest(
      running.url,
      {
        method: 'POST',
        target: `${API}/collections`,
        headers: [
          ['Authorization', `Bearer ${FULL}`],
          ['Content-Type', 'application/json'],
          ['Content-Length', '1000'],
        ],
        body: '{"name":"stal',
      },
      { timeoutMs: 4_000 },
    );
    expect(response.status).toBe(408);
    expect(response.headers.connection).toBe('close');
    expect(response.text).toBe('');
  });
});

describe('binding', () => {
  it('listens on 127.0.0.1 when no host is given', async () => {
    const running = await startServer({ mock: await createMock(), port: 0, quiet: true });
    started.push(running);
    expect(new URL(running.url).hostname).toBe('127.0.0.1');
    expect(running.server.address()).toMatchObject({ address: '127.0.0.1', family: 'IPv4' });
  });

  it('shows 127.0.0.1 as the default host in the CLI help', async () => {
    const env = { ...process.env };
    delete env.HOST;
    delete env.PORT;
    const child = spawn(process.execPath, mockBin('--help'), {
      cwd: ROOT,
      env,
    });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
    expect(code).toBe(0);
    expect(stdout).toMatch(/--host <h>[^\n]*\(default: "127\.0\.0\.1"/);
  }, 30_000);
});
