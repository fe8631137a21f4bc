import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { maskApiKey } from '../../src/core/api-key.ts';
import { createMock } from '../../src/index.ts';
import { startServer, type RunningServer } from '../../src/node/server.ts';

let server: RunningServer;
beforeAll(async () => {
  server = await startServer({ mock: await createMock(), port: 0, quiet: true });
});
afterAll(() => server.close());

describe('the control API across origins', () => {
  it('is not readable from a page of another site (it would hand out every key)', async () => {
    const response = await fetch(`${server.url}/__mock/state`, {
      headers: { origin: 'https://evil.example' },
    });
    expect(response.headers.get('access-control-allow-origin')).toBeNull();
    const preflight = await fetch(`${server.url}/__mock/reset`, {
      method: 'OPTIONS',
      headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' },
    });
    expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('is readable from a page served on this machine', async () => {
    for (const origin of ['http://localhost:5173', 'http://127.0.0.1:3000', 'http://[::1]:8080']) {
      const response = await fetch(`${server.url}/__mock/clock`, { headers: { origin } });
      expect(response.headers.get('access-control-allow-origin')).toBe(origin);
    }
  });

  it('leaves the API open to any origin', async () => {
    const response = await fetch(`${server.url}/api/answers/v1/collections`, {
      headers: { origin: 'https://app.example' },
    });
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
  });
});

describe('masked keys in logs', () => {
  it.each([
    ['answers_live_4f9c2a7e1b3d5f6a8c0e', 'answers_…8c0e'],
    ['answers_test_full_acme', '…acme'],
    ['abcdefghijklm', '…jklm'],
    ['short', '****'],
  ])('masks %s as %s, hiding at least half of it', (key, masked) => {
    expect(maskApiKey(key)).toBe(masked);
    const shown = masked.replace(/[…*]/g, '').length;
    expect(shown).toBeLessThanOrEqual(key.length / 2);
  });
});
