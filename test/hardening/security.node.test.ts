/**
 * Security of the mock itself (issue "Hardening", part 5): keys are never logged or echoed, keys
 * are compared in constant time against every key, errors carry no internals, request limits and
 * slow-client timeouts are set, the server binds to loopback, and the control API stays apart.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { constantTimeEqual, findApiKey, maskApiKey, type ApiKey } from '../../src/core/api-key.ts';
import { createMock, type AnswersMock } from '../../src/index.ts';
import { startServer, type RunningServer, type StartOptions } from '../../src/node/server.ts';
import { DEV_KEYS } from '../../src/seed/dev-keys.ts';
import { expectNoInternals } from './catalogue-checks.ts';
import { rawRequest, type RawRequestSpec } from './raw-http.ts';

const API = '/api/answers/v1';
const FULL = 'answers_test_full_acme';
const ROOT = fileURLToPath(new URL('../..', import.meta.url));

const started: RunningServer[] = [];
async function start(options: Partial<StartOptions> & { mock?: AnswersMock } = {}) {
  const server = await startServer({
    mock: options.mock ?? (await createMock()),
    port: 0,
    quiet: true,
    ...options,
  });
  started.push(server);
  return server;
}

afterEach(async () => {
  vi.restoreAllMocks();
  await Promise.all(started.splice(0).map((server) => server.close()));
});

// ---------------------------------------------------------------------------------------------
// Keys are never logged or echoed
// ---------------------------------------------------------------------------------------------

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
          expect(response.status, `${spec.method} ${spec.target}`).toBeGreaterThan(0);
          responses.push(JSON.stringify(response.headers), response.text);
        }
        mock.controls.clearFailures();
      }
    }
    const logs = [...lines, output.text()].join('\n');
    expect(lines.length).toBeGreaterThan(100);
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

// ---------------------------------------------------------------------------------------------
// Constant-time comparison against every key
// ---------------------------------------------------------------------------------------------

describe('constantTimeEqual', () => {
  it.each([
    ['equal', 'answers_test_full_acme', 'answers_test_full_acme', true],
    ['different, same length', 'answers_test_full_acme', 'answers_test_full_acmf', false],
    ['different first character', 'bnswers_test_full_acme', 'answers_test_full_acme', false],
    ['presented is a prefix of expected', 'answers_test', 'answers_test_full_acme', false],
    ['expected is a prefix of presented', 'answers_test_full_acme', 'answers_test', false],
    ['presented longer', 'answers_test_full_acme_x', 'answers_test_full_acme', false],
    ['presented shorter', 'a', 'answers_test_full_acme', false],
    ['both empty', '', '', true],
    ['presented empty', '', 'answers_test_full_acme', false],
    ['expected empty', 'answers_test_full_acme', '', false],
    ['case differs', 'ANSWERS_TEST_FULL_ACME', 'answers_test_full_acme', false],
    ['non-ASCII equal', 'clé-€', 'clé-€', true],
    ['non-ASCII different', 'clé-€', 'cle-€', false],
    ['repeated expected pattern', 'abab', 'ab', false],
  ])('%s', (_, presented, expected, result) => {
    expect(constantTimeEqual(presented, expected)).toBe(result);
  });
});

describe('findApiKey', () => {
  /** Keys whose `key` getters count every read. */
  function countingKeys(values: string[]) {
    const reads = values.map(() => 0);
    const keys = values.map((value, i): ApiKey => ({
      get key() {
        reads[i]!++;
        return value;
      },
      account_id: `account${i}`,
      permissions: ['read'],
      active: true,
    }));
    return { keys, reads };
  }

  const VALUES = ['key_alpha_0001', 'key_bravo_0002', 'key_charlie_03', 'key_delta_0004'];

  it.each([
    ['the first key', 'key_alpha_0001', 0],
    ['a middle key', 'key_charlie_03', 2],
    ['the last key', 'key_delta_0004', 3],
  ])('finds %s and still compares against every key', (_, presented, index) => {
    const { keys, reads } = countingKeys(VALUES);
    expect(findApiKey(keys, presented)).toBe(keys[index]);
    expect(reads).toEqual([1, 1, 1, 1]);
  });

  it.each([
    ['an unknown key', 'key_echo_00005'],
    ['a prefix of a key', 'key_alpha'],
    ['a key plus a suffix', 'key_alpha_0001x'],
    ['the empty string', ''],
  ])('returns undefined for %s after comparing against every key', (_, presented) => {
    const { keys, reads } = countingKeys(VALUES);
    expect(findApiKey(keys, presented)).toBeUndefined();
    expect(reads).toEqual([1, 1, 1, 1]);
  });

  it('returns the first of two equal keys, having read both', () => {
    const { keys, reads } = countingKeys(['dup_key_00001', 'dup_key_00001', 'other_key_0001']);
    expect(findApiKey(keys, 'dup_key_00001')).toBe(keys[0]);
    expect(reads).toEqual([1, 1, 1]);
  });

  it('returns undefined for an empty key list', () => {
    expect(findApiKey([], FULL)).toBeUndefined();
  });
});

// ---------------------------------------------------------------------------------------------
// Error bodies carry no internals, also on a 500
// ---------------------------------------------------------------------------------------------

describe('a 500 carries no internals', () => {
  const SECRET = 'secret-internal-detail';

  async function expectBare500(url: string, path = `${API}/collections`) {
    const response = await fetch(`${url}${path}`, {
      headers: { authorization: `Bearer ${FULL}` },
    });
    const text = await response.text();
    expect(response.status).toBe(500);
    expect(response.headers.get('content-type')).toBe('application/problem+json');
    expect(JSON.parse(text)).toEqual({
      type: 'urn:answers:problem:internal_error',
      title: 'Internal error',
      status: 500,
      code: 'internal_error',
      detail: 'The mock failed to answer this request.',
    });
    expectNoInternals(text, 'a 500');
    expect(text).not.toContain(SECRET);
  }

  it('when forced with controls.failNext', async () => {
    const mock = await createMock();
    const running = await start({ mock });
    mock.controls.failNext('listCollections', 500);
    const response = await fetch(`${running.url}${API}/collections`, {
      headers: { authorization: `Bearer ${FULL}` },
    });
    const text = await response.text();
    expect(response.status).toBe(500);
    expect(JSON.parse(text)).toMatchObject({ status: 500, code: 'internal_error' });
    expectNoInternals(text, 'a forced 500');
  });

  it('when the mock itself throws (the stack goes to stderr only)', async () => {
    const mock = await createMock();
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    const broken: AnswersMock = {
      ...mock,
      handleDetailed: async () => {
        throw new Error(`${SECRET} at ${ROOT}src/core/secret.ts:12:3`);
      },
    };
    const running = await start({ mock: broken });
    await expectBare500(running.url);
    expect(String(errors.mock.calls[0]?.[0])).toContain(SECRET);
  });

  it('when an operation throws inside the core', async () => {
    const mock = await createMock();
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    mock.state.store.collectionsOf = () => {
      throw new TypeError(`${SECRET}: cannot read properties of undefined`);
    };
    const running = await start({ mock });
    await expectBare500(running.url);
    expect(errors).toHaveBeenCalled();
    expect(String(errors.mock.calls[0]?.[0])).toContain('TypeError');
  });
});

// ---------------------------------------------------------------------------------------------
// Request limits and slow clients
// ---------------------------------------------------------------------------------------------

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
    // does not wait 10 s. What it proves is that they are enforced within about a second.
    running.server.requestTimeout = 300;
    running.server.headersTimeout = 300;
    const began = Date.now();
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
    expect(Date.now() - began).toBeLessThan(3_000);
  });
});

// ---------------------------------------------------------------------------------------------
// Loopback by default
// ---------------------------------------------------------------------------------------------

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
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', 'src/bin/answers-mock.ts', '--help'],
      {
        cwd: ROOT,
        env,
      },
    );
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
    expect(code).toBe(0);
    expect(stdout).toMatch(/--host <h>[^\n]*\(default: "127\.0\.0\.1"/);
  }, 30_000);
});

// ---------------------------------------------------------------------------------------------
// The control API
// ---------------------------------------------------------------------------------------------

/** Requests that try to reach the control API through the API prefixes or encoded spellings. */
const SMUGGLED: Array<[method: string, target: string]> = [
  ['POST', `${API}/__mock/reset`],
  ['POST', '/api/answers/__mock/reset'],
  ['POST', '/v1/__mock/reset'],
  ['GET', '/v1/__mock/state'],
  ['GET', `${API}/__mock/state`],
  ['PUT', `${API}/__mock/state`],
  ['POST', '/%5F%5Fmock/reset'],
  ['POST', '/%5f%5fmock/reset'],
  ['POST', '/__mock%2Freset'],
  ['POST', '/%2F__mock/reset'],
  ['POST', `${API}/../../__mock/reset`],
  ['POST', `${API}/%2E%2E/%2E%2E/__mock/reset`],
  ['POST', '/v1/..%2F__mock/reset'],
  ['POST', '//__mock/reset'],
  ['POST', '/__MOCK/reset'],
  ['POST', '/__mock/reset/'],
  ['POST', '/__mock/./reset'],
];

async function deleteFirstCollection(url: string): Promise<string> {
  const list = await fetch(`${url}${API}/collections?limit=1`, {
    headers: { authorization: `Bearer ${FULL}` },
  });
  const id = ((await list.json()) as { data: Array<{ id: string }> }).data[0]!.id;
  const deleted = await fetch(`${url}${API}/collections/${id}`, {
    method: 'DELETE',
    headers: { authorization: `Bearer ${FULL}` },
  });
  expect(deleted.status).toBe(204);
  return id;
}

async function collectionStatus(url: string, id: string): Promise<number> {
  const response = await fetch(`${url}${API}/collections/${id}`, {
    headers: { authorization: `Bearer ${FULL}` },
  });
  return response.status;
}

describe('the control API', () => {
  it('is off with control: false', async () => {
    const running = await start({ control: false });
    const id = await deleteFirstCollection(running.url);
    for (const [method, path] of [
      ['POST', '/__mock/reset'],
      ['GET', '/__mock/state'],
      ['PUT', '/__mock/state'],
      ['GET', '/__mock/clock'],
      ['POST', '/__mock/failures'],
    ] as const) {
      const response = await fetch(`${running.url}${path}`, {
        method,
        body: method === 'GET' ? undefined : '{}',
      });
      expect(response.status, `${method} ${path}`).toBe(404);
      expect(response.headers.get('content-type')).toBe('application/problem+json');
      expect(await response.json()).toMatchObject({ code: 'not_found' });
    }
    expect(await collectionStatus(running.url, id)).toBe(404); // nothing was reset
  });

  it.each([true, false])(
    'is never reachable through an API prefix or an encoded path (control: %s)',
    async (control) => {
      const running = await start({ control });
      const id = await deleteFirstCollection(running.url);
      for (const [method, target] of SMUGGLED) {
        for (const headers of [[], [['Authorization', `Bearer ${FULL}`]]] as const) {
          const response = await rawRequest(running.url, {
            method,
            target,
            headers: [...headers],
            body: method === 'GET' ? undefined : '{}',
          });
          expect(response.status, `${method} ${target}`).toBe(404);
          expect(response.headers['content-type']).toBe('application/problem+json');
          expect(JSON.parse(response.text)).toMatchObject({ code: 'not_found' });
          expect(response.text).not.toContain('"accounts"');
        }
      }
      expect(await collectionStatus(running.url, id)).toBe(404); // nothing was reset
    },
  );

  it('needs no key under /__mock, while API paths do', async () => {
    const running = await start();
    const state = await fetch(`${running.url}/__mock/state`);
    expect(state.status).toBe(200);
    expect(await state.json()).toHaveProperty('collections');
    expect((await fetch(`${running.url}/__mock/clock`)).status).toBe(200);
    for (const prefix of ['/api/answers/v1', '/api/answers', '/v1']) {
      const response = await fetch(`${running.url}${prefix}/collections`);
      expect(response.status).toBe(401);
      expect(await response.json()).toMatchObject({ code: 'missing_credentials' });
    }
    const id = await deleteFirstCollection(running.url);
    expect((await fetch(`${running.url}/__mock/reset`, { method: 'POST' })).status).toBe(204);
    expect(await collectionStatus(running.url, id)).toBe(200);
  });
});
