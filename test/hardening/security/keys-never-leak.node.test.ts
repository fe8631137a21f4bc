/**
 * Security of the mock itself (issue "Hardening", part 5): API keys are never logged or echoed in
 * full. Every key, right or wrong, is sent in every place a key can be put; all server output
 * and every response are then searched for it.
 */
import { randomBytes } from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';
import { maskApiKey } from '../../../src/core/api-key.ts';
import { createMock } from '../../../src/index.ts';
import { DEV_KEYS } from '../../../src/seed/dev-keys.ts';
import { rawRequest, type RawRequestSpec } from '../raw-http.ts';
import { API, FULL, serversClosedAfterEach } from './servers.ts';

const { start } = serversClosedAfterEach();

/** Records everything written to stdout, stderr and the console while it is installed. */
function captureOutput(): { text: () => string } {
  const chunks: string[] = [];
  const record = (chunk: unknown) => {
    chunks.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk as Uint8Array).toString());
  };
  for (const stream of [process.stdout, process.stderr]) {
    const write = stream.write.bind(stream);
    vi.spyOn(stream, 'write').mockImplementation(((chunk: unknown, ...rest: unknown[]) => {
      record(chunk);
      return (write as (...args: unknown[]) => boolean)(chunk, ...rest);
    }) as typeof stream.write);
  }
  for (const method of ['log', 'info', 'warn', 'error', 'debug'] as const) {
    vi.spyOn(console, method).mockImplementation((...args: unknown[]) => {
      chunks.push(args.map((a) => (a instanceof Error ? `${a.stack}` : String(a))).join(' '));
    });
  }
  return { text: () => chunks.join('\n') };
}

/** The requests of the batch for one key: every place a key can be put, right or wrong. */
function requestsFor(key: string): RawRequestSpec[] {
  const json: [string, string] = ['Content-Type', 'application/json'];
  const collections = `${API}/collections`;
  return [
    { method: 'GET', target: collections, headers: [['Authorization', `Bearer ${key}`]] },
    { method: 'GET', target: collections, headers: [['authorization', `bearer ${key}`]] },
    { method: 'GET', target: collections, headers: [['X-Answers-API-Key', key]] },
    {
      method: 'GET',
      target: collections,
      headers: [
        ['Authorization', `Bearer ${key}`],
        ['X-Answers-API-Key', key],
      ],
    },
    {
      method: 'GET',
      target: collections,
      headers: [
        ['Authorization', `Bearer ${key}`],
        ['X-Answers-API-Key', 'answers_test_full_globex'],
      ],
    },
    {
      method: 'GET',
      target: collections,
      headers: [
        ['X-Answers-API-Key', key],
        ['X-Answers-API-Key', `${key}x`],
      ],
    },
    // malformed forms
    { method: 'GET', target: collections, headers: [['Authorization', `Bearer  ${key}`]] },
    { method: 'GET', target: collections, headers: [['Authorization', `Bearer ${key} extra`]] },
    { method: 'GET', target: collections, headers: [['Authorization', `Token ${key}`]] },
    { method: 'GET', target: collections, headers: [['Authorization', key]] },
    { method: 'GET', target: collections, headers: [['X-Answers-API-Key', `${key} ${key}`]] },
    { method: 'GET', target: collections, headers: [['Cookie', `api_key=${key}`]] },
    // in query strings
    { method: 'GET', target: `${collections}?api_key=${key}` },
    { method: 'GET', target: `${collections}?access_token=${key}&limit=${key}` },
    {
      method: 'GET',
      target: `${collections}?cursor=${key}`,
      headers: [['X-Answers-API-Key', FULL]],
    },
    // in bodies
    {
      method: 'POST',
      target: collections,
      headers: [['Authorization', `Bearer ${FULL}`], json],
      body: JSON.stringify({ name: 'keyed', api_key: key }),
    },
    {
      method: 'POST',
      target: collections,
      headers: [['Authorization', `Bearer ${FULL}`], json],
      body: `{"name":"${key}"`,
    },
    {
      method: 'POST',
      target: `${API}/search`,
      headers: [['Authorization', `Bearer ${FULL}`], json],
      body: JSON.stringify({ query: key, cursor: key }),
    },
    {
      method: 'POST',
      target: `${API}/search`,
      headers: [['Authorization', `Bearer ${FULL}`], json],
      body: JSON.stringify({ query: 'en', limit: key }),
    },
    {
      method: 'POST',
      target: collections,
      headers: [
        ['Authorization', `Bearer ${key}`],
        ['Content-Type', 'text/plain'],
      ],
      body: key,
    },
    // a key as a broken JSON body (a JSON parser's message may quote the input)
    {
      method: 'POST',
      target: collections,
      headers: [['Authorization', `Bearer ${FULL}`], json],
      body: key,
    },
    {
      method: 'POST',
      target: collections,
      headers: [['Authorization', `Bearer ${FULL}`], json],
      body: `{"name": ${key}}`,
    },
    // on routes that are not operations
    { method: 'TRACE', target: collections, headers: [['Authorization', `Bearer ${key}`]] },
    { method: 'GET', target: `${API}/nowhere`, headers: [['Authorization', `Bearer ${key}`]] },
    { method: 'OPTIONS', target: collections, headers: [['Authorization', `Bearer ${key}`]] },
    // a forced error and a forced 500
    {
      method: 'GET',
      target: collections,
      headers: [
        ['Authorization', `Bearer ${key}`],
        ['Prefer', 'code=429'],
      ],
    },
    { method: 'GET', target: `${API}/collections`, headers: [['X-Answers-API-Key', key]] },
  ];
}

describe('API keys never leave the mock in full', () => {
  it('appear in no log line, no stdout/stderr write and no response, for any key', async () => {
    const random = [
      `rk_${randomBytes(18).toString('base64url')}`,
      `rk_${randomBytes(6).toString('hex')}`,
      randomBytes(30).toString('base64url'),
      `sk-live-${randomBytes(24).toString('hex')}`,
      `rk_${randomBytes(4).toString('hex')}`, // short: masked as ****
    ];
    const keys = [...DEV_KEYS.map((k) => k.key), ...random];
    const output = captureOutput();
    const lines: string[] = [];
    const mock = await createMock();
    const logged = await start({ mock, quiet: false, logger: (line) => lines.push(line) });
    // The default logger (console.log) as well.
    const defaulted = await start({ mock, quiet: false });
    const responses: string[] = [];
    for (const server of [logged, defaulted]) {
      for (const key of keys) {
        // Each batch meets a queued 500 at its first listCollections that passes authentication.
        mock.controls.failNext('listCollections', 500);
        for (const spec of requestsFor(key)) {
          const response = await rawRequest(server.url, spec);
          // An HTTP answer, not a dropped connection (status 0).
          expect(response.error, `${spec.method} ${spec.target}`).toBeUndefined();
          expect(response.status, `${spec.method} ${spec.target}`).toBeGreaterThanOrEqual(200);
          responses.push(JSON.stringify(response.headers), response.text);
        }
        mock.controls.clearFailures();
      }
    }
    const logs = [...lines, output.text()].join('\n');
    // One log line per request of the logging server: the search below covered every one.
    expect(lines).toHaveLength(keys.length * requestsFor(FULL).length);
    const everything = `${logs}\n${responses.join('\n')}`;
    for (const key of keys) {
      expect(everything.includes(key), `the key ${maskApiKey(key)} appears in full`).toBe(false);
    }
    expect(logs).toContain(maskApiKey(FULL)); // a masked key is what the log shows
  });

  it('masks every key to at most 12 of its characters', () => {
    for (const key of ['short', 'exactly12chr', FULL, 'x'.repeat(512)]) {
      const masked = maskApiKey(key);
      expect(masked).not.toContain(key);
      expect(masked.replace('…', '').length).toBeLessThanOrEqual(12);
    }
  });
});
