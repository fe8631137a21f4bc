/**
 * No secret in any output (issue 46, part 4): 20 runs of the suite, `explore` and `replay` (a
 * recording, and a HAR full of secrets, against the target and against the mock) against a
 * target that quotes every key it is presented in its error bodies and headers. Every output of
 * every run (stdout, stderr, the --json and --junit files) is searched for every key and secret
 * value, in any encoding; each run that printed the target's answers shows them redacted; no
 * terminal control character of a test or page name is printed raw, and the reports stay valid
 * JSON and XML. The HAR's `access_token` and `sig` never reach the target either.
 *
 * @note Deep tier, once a CI run: what it proves is the code's output sink, not the Node line's
 * (20 whole runs, a minute of CPU); the redactor's rules are table-driven in test/unit.
 */
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { SaxesParser } from 'saxes';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMock } from '../../../src/index.ts';
import { startServer, type RunningServer } from '../../../src/node/server.ts';
import { contract } from '../../support/contract-cli.ts';
import { scratchDir } from '../../support/scratch.ts';

/**
 * The secrets, each around a core of letters and digits that no encoding changes: a core found
 * in an output is the secret, however escaped. The read-only key holds characters JSON, URLs
 * and XML all escape.
 */
const SECRETS = {
  full: { value: 'sk_live_FULLcoreA1b2C3d4', core: 'FULLcoreA1b2C3d4' },
  readonly: { value: 'ro"<&key/ROcoreE5f6G7h8+=', core: 'ROcoreE5f6G7h8' },
  otherAccount: { value: 'sk_live_OTHRcoreJ9k0L1m2', core: 'OTHRcoreJ9k0L1m2' },
  inactive: { value: 'sk_live_INACcoreN3p4Q5r6', core: 'INACcoreN3p4Q5r6' },
  /** A key of the deployment a HAR was recorded on, which no run is given. */
  deployment: { value: 'dep_DEPLcoreS7t8U9v0', core: 'DEPLcoreS7t8U9v0' },
  accessToken: { value: 'ya29.TOKNcoreW1x2Y3z4', core: 'TOKNcoreW1x2Y3z4' },
  sig: { value: 'SIGNcoreB5c6D7e8', core: 'SIGNcoreB5c6D7e8' },
} as const;
const CORES = Object.values(SECRETS).map((secret) => secret.core);

/** The mock's own key for each secret key the echoing target takes. */
const MOCK_KEY: Array<[string, string]> = [
  [SECRETS.full.value, 'answers_test_full_acme'],
  [SECRETS.readonly.value, 'answers_test_readonly_acme'],
  [SECRETS.otherAccount.value, 'answers_test_full_globex'],
  [SECRETS.inactive.value, 'answers_test_inactive_acme'],
];

const CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/; // eslint-disable-line no-control-regex
/** Names that try to steer the terminal: clear the screen, set its title, ring, colour (C1 CSI). */
const HOSTILE_NAME = 'pays \x1b[2J\x1b]0;owned\x07 the bill \x9b31m in red\r';

let mock: RunningServer;
let echo: Server;
let dir: string;
/**
 * The target's root: `ok` answers as the mock does but quotes the key in every refusal, and
 * answers a get of an object 500 (so that replay prints its answers); `writes` answers every
 * write 500 (so that explore finds it at once); `broken` answers everything 500.
 */
const root = (mode: 'ok' | 'writes' | 'broken') =>
  `http://127.0.0.1:${(echo.address() as AddressInfo).port}/${mode}/api/answers/v1`;
/** Every request line the target received. */
const received: string[] = [];

/** A target that quotes what it was presented: in the body, JSON and URL-encoded, and a header. */
function startEchoingTarget(): Promise<Server> {
  const upstream = new URL(mock.url);
  const server = createServer((request, response) => {
    received.push(`${request.method} ${request.url}`);
    const [, mode = 'ok', ...rest] = (request.url ?? '/').split('/');
    const path = `/${rest.join('/')}`;
    const authorization = String(request.headers.authorization ?? '');
    const headerKey = String(request.headers['x-answers-api-key'] ?? '');
    const presented = authorization.replace(/^bearer\s+/i, '') || headerKey;
    const headers = { ...request.headers };
    for (const [secret, own] of MOCK_KEY) {
      if (headers.authorization) headers.authorization = headers.authorization.replace(secret, own);
      const value = headers['x-answers-api-key'];
      if (typeof value === 'string') headers['x-answers-api-key'] = value.replace(secret, own);
    }
    const sent: Buffer[] = [];
    request.on('data', (chunk: Buffer) => sent.push(chunk));
    request.on('end', () => {
      const forward = httpRequest(
        { host: upstream.hostname, port: upstream.port, method: request.method, path, headers },
        (answer) => {
          const body: Buffer[] = [];
          answer.on('data', (chunk: Buffer) => body.push(chunk));
          answer.on('end', () => {
            let status = answer.statusCode ?? 500;
            if (mode === 'broken' || (mode === 'writes' && request.method !== 'GET')) status = 500;
            if (request.method === 'GET' && /\/objects\/[^/?]+(\?|$)/.test(path)) status = 500;
            let text = Buffer.concat(body).toString();
            const out: Record<string, string> = { 'content-type': 'application/json' };
            if (status >= 400) {
              const said = `you sent Authorization: ${authorization || '-'}; X-Answers-API-Key: ${headerKey || '-'}; key=${encodeURIComponent(presented)}; to ${request.url}`;
              let parsed: unknown = {};
              try {
                parsed = JSON.parse(text);
              } catch {
                // an empty body
              }
              // @note First, so that a shortened answer still shows it.
              text = JSON.stringify({ echo: said, key: presented, ...(parsed as object) });
              out['content-type'] = `text/x-echo; authorization="${authorization}"`;
            }
            response.writeHead(status, out);
            response.end(text);
          });
        },
      );
      forward.on('error', () => response.destroy());
      forward.end(Buffer.concat(sent));
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

const KEY_OPTIONS = [
  '--api-key',
  SECRETS.full.value,
  '--readonly-key',
  SECRETS.readonly.value,
  '--other-account-key',
  SECRETS.otherAccount.value,
  '--inactive-key',
  SECRETS.inactive.value,
];
const KEY_ENV = {
  ANSWERS_API_KEY: SECRETS.full.value,
  ANSWERS_READONLY_KEY: SECRETS.readonly.value,
  ANSWERS_OTHER_ACCOUNT_KEY: SECRETS.otherAccount.value,
  ANSWERS_INACTIVE_KEY: SECRETS.inactive.value,
};

/** A recording of a consumer's tests: every key's refusal, then the get the target fails. */
function recordingText(): string {
  const prefix = '/api/answers/v1';
  const collection = { id: 'col_r1', name: 'bills', metadata: {}, object_count: 0 };
  const object = { id: 'obj_r1', collection_id: 'col_r1', content: { total: 3 } };
  const exchanges = [
    {
      operation: 'createCollection',
      method: 'POST',
      path: `${prefix}/collections`,
      query: `access_token=${SECRETS.accessToken.value}&sig=${SECRETS.sig.value}`,
      key: 'full',
      body: { name: 'bills', metadata: {} },
      status: 201,
      response: collection,
    },
    ...(['readonly', 'inactive', 'otherAccount'] as const).map((key) => ({
      operation: 'createObject',
      method: 'POST',
      path: `${prefix}/collections/col_r1/objects`,
      query: '',
      key,
      body: { content: { total: 1 } },
      status: key === 'otherAccount' ? 404 : 401,
    })),
    {
      operation: 'createObject',
      method: 'POST',
      path: `${prefix}/collections/col_r1/objects`,
      query: '',
      key: 'full',
      body: { content: { total: 3 } },
      status: 201,
      response: object,
    },
    {
      operation: 'getObject',
      method: 'GET',
      path: `${prefix}/collections/col_r1/objects/obj_r1`,
      query: `token=${SECRETS.accessToken.value}`,
      key: 'full',
      status: 200,
      response: object,
    },
  ];
  return JSON.stringify({
    format: 'answers-recording/1',
    sequences: [
      { name: `bills.test.ts > ${HOSTILE_NAME}`, exchanges },
      { name: 'bills.test.ts > lists \x1b[31mnothing', exchanges: exchanges.slice(0, 1) },
    ],
  });
}

/** A HAR of an app whose URLs carry an access token and a signature, on a page named to harm. */
function harText(origin: string): string {
  const url = (path: string) =>
    `${origin}/api/answers/v1${path}${path.includes('?') ? '&' : '?'}access_token=${SECRETS.accessToken.value}&sig=${SECRETS.sig.value}`;
  const entry = (
    method: string,
    path: string,
    key: string,
    status: number,
    response: unknown,
    body?: unknown,
  ) => ({
    pageref: 'p1',
    request: {
      method,
      url: url(path),
      headers: [
        { name: 'Authorization', value: `Bearer ${key}` },
        { name: 'Cookie', value: `session=${SECRETS.accessToken.value}` },
      ],
      queryString: [{ name: 'access_token', value: SECRETS.accessToken.value }],
      ...(body === undefined
        ? {}
        : { postData: { mimeType: 'application/json', text: JSON.stringify(body) } }),
    },
    response: {
      status,
      headers: [{ name: 'Set-Cookie', value: `session=${SECRETS.sig.value}` }],
      content: { mimeType: 'application/json', text: JSON.stringify(response) },
    },
  });
  const collection = { id: 'col_h1', name: 'inbox', metadata: {}, object_count: 0 };
  const object = { id: 'obj_h1', collection_id: 'col_h1', content: { subject: 'hi' } };
  return JSON.stringify({
    log: {
      version: '1.2',
      pages: [{ id: 'p1', title: `Inbox ${HOSTILE_NAME}` }],
      entries: [
        entry('GET', '/collections?limit=5', SECRETS.full.value, 200, {
          data: [],
          next_cursor: null,
        }),
        entry('POST', '/collections', SECRETS.full.value, 201, collection, {
          name: 'inbox',
          metadata: {},
        }),
        entry('GET', '/collections/col_h1', SECRETS.deployment.value, 401, {
          echo: `Bearer ${SECRETS.deployment.value}`,
        }),
        entry('POST', '/collections/col_h1/objects', SECRETS.full.value, 201, object, {
          content: { subject: 'hi' },
        }),
        // @note The mock answers 200: against it, the run diverges here.
        entry('GET', '/collections/col_h1/objects/obj_h1', SECRETS.full.value, 404, {
          echo: `Bearer ${SECRETS.deployment.value}`,
        }),
      ],
    },
  });
}

interface Outputs {
  name: string;
  code: number;
  stdout: string;
  stderr: string;
  json?: string;
  junit?: string;
  html?: string;
}

/** One run, with --json, --junit and --html in files of their own, and all it printed or wrote. */
async function run(
  name: string,
  args: string[],
  env: Record<string, string> = {},
): Promise<Outputs> {
  const slug = name.replace(/\W+/g, '-');
  const json = join(dir, `${slug}.json`);
  const junit = join(dir, `${slug}.xml`);
  const html = join(dir, `${slug}.html`);
  const result = await contract([...args, '--json', json, '--junit', junit, '--html', html], env);
  const read = (file: string) => readFile(file, 'utf8').catch(() => undefined);
  return {
    name,
    ...result,
    json: await read(json),
    junit: await read(junit),
    html: await read(html),
  };
}

const RUNS: Array<{ name: string; args: () => string[]; env?: Record<string, string> }> = [
  {
    name: 'the suite, destructive',
    args: () => ['--base-url', root('ok'), ...KEY_OPTIONS, '--destructive'],
  },
  {
    name: 'the suite at level profile, keys from the environment',
    args: () => ['--base-url', root('ok'), '--level', 'profile', '--destructive'],
    env: KEY_ENV,
  },
  {
    name: 'the suite against a target that answers nothing but 500',
    args: () => ['--base-url', root('broken'), ...KEY_OPTIONS, '--destructive'],
  },
  ...[1, 2, 4].map((seed) => ({
    name: `explore seed ${seed}`,
    args: () => [
      'explore',
      '--base-url',
      root('writes'),
      ...KEY_OPTIONS,
      '--destructive',
      '--seed',
      String(seed),
      '--budget',
      '20s',
      '--shrink-budget',
      '1s',
      '--max-steps',
      '4',
      ...(seed === 4 ? ['--level', 'profile'] : []),
    ],
  })),
  {
    name: 'explore, keys from the environment',
    args: () => [
      'explore',
      '--base-url',
      root('writes'),
      '--destructive',
      '--seed',
      '6',
      '--budget',
      '20s',
      '--shrink-budget',
      '1s',
      '--max-steps',
      '4',
    ],
    env: KEY_ENV,
  },
  ...[1, 2, 3].map((concurrency) => ({
    name: `replay of a recording, concurrency ${concurrency}`,
    args: () => [
      'replay',
      join(dir, 'bills.test.ts.json'),
      '--base-url',
      root('ok'),
      ...KEY_OPTIONS,
      '--destructive',
      '--concurrency',
      String(concurrency),
    ],
  })),
  {
    name: 'replay of a recording, keys from the environment',
    args: () => ['replay', join(dir, 'bills.test.ts.json'), '--base-url', root('ok')],
    env: KEY_ENV,
  },
  {
    name: 'replay of a recording against a target that answers nothing but 500',
    args: () => [
      'replay',
      join(dir, 'bills.test.ts.json'),
      '--base-url',
      root('broken'),
      ...KEY_OPTIONS,
      '--destructive',
    ],
  },
  {
    name: 'replay of a HAR against the target',
    args: () => [
      'replay',
      join(dir, 'app.har'),
      '--base-url',
      root('ok'),
      ...KEY_OPTIONS,
      '--destructive',
    ],
  },
  {
    name: 'replay of a HAR against the target, read-only, keys in the = form',
    args: () => [
      'replay',
      join(dir, 'app.har'),
      `--base-url=${root('ok')}`,
      ...KEY_OPTIONS.flatMap((arg, i, all) => (i % 2 === 0 ? [`${arg}=${all[i + 1]}`] : [])),
    ],
  },
  {
    name: 'replay of a HAR against the target, one at a time',
    args: () => [
      'replay',
      join(dir, 'app.har'),
      '--base-url',
      root('ok'),
      ...KEY_OPTIONS,
      '--destructive',
      '--concurrency',
      '1',
    ],
  },
  {
    name: 'replay of a recording against a target that fails every write',
    args: () => [
      'replay',
      join(dir, 'bills.test.ts.json'),
      '--base-url',
      root('writes'),
      ...KEY_OPTIONS,
      '--destructive',
    ],
  },
  {
    name: 'replay of a HAR against the mock',
    args: () => ['replay', join(dir, 'app.har'), '--against-mock', ...KEY_OPTIONS],
  },
  {
    name: 'replay of a HAR against the mock, keys from the environment',
    args: () => ['replay', join(dir, 'app.har'), '--against-mock'],
    env: KEY_ENV,
  },
  {
    name: 'replay of a HAR and a recording against the target, one at a time',
    args: () => [
      'replay',
      join(dir, 'app.har'),
      join(dir, 'bills.test.ts.json'),
      '--base-url',
      root('ok'),
      ...KEY_OPTIONS,
      '--destructive',
      '--concurrency',
      '1',
    ],
  },
  {
    name: 'replay of a HAR and a recording against a target that answers nothing but 500',
    args: () => [
      'replay',
      join(dir, 'app.har'),
      join(dir, 'bills.test.ts.json'),
      '--base-url',
      root('broken'),
      ...KEY_OPTIONS,
      '--destructive',
    ],
  },
];

let outputs: Outputs[] = [];

beforeAll(async () => {
  mock = await startServer({ mock: await createMock(), port: 0, quiet: true });
  echo = await startEchoingTarget();
  dir = await scratchDir('answers-secrets-');
  await writeFile(join(dir, 'bills.test.ts.json'), recordingText());
  await writeFile(join(dir, 'app.har'), harText('https://app.example.com'));
  // @note Three at a time: the runs wait on the target more than they compute.
  const queue = [...RUNS];
  const worker = async () => {
    for (let next = queue.shift(); next; next = queue.shift())
      outputs.push(await run(next.name, next.args(), next.env));
  };
  await Promise.all([worker(), worker(), worker()]);
  outputs = RUNS.map((r) => outputs.find((o) => o.name === r.name)!);
}, 240_000);

afterAll(async () => {
  echo?.closeAllConnections();
  await new Promise((resolve) => echo?.close(resolve));
  await mock?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('20 runs against a target that echoes every key it is presented', () => {
  it('ran 20 times, each to its end (exit 0, 1 or 2, never a crash)', () => {
    expect(outputs).toHaveLength(20);
    for (const out of outputs) {
      expect([0, 1, 2], `${out.name}: ${out.stderr}`).toContain(out.code);
      expect(out.stderr, out.name).not.toMatch(/internal error/);
    }
  });

  it('printed and wrote no key, access_token or sig value, in any encoding', () => {
    for (const out of outputs)
      for (const [where, text] of Object.entries({
        stdout: out.stdout,
        stderr: out.stderr,
        json: out.json,
        junit: out.junit,
        html: out.html,
      }))
        for (const core of CORES)
          expect(text?.includes(core), `${out.name}, ${where}: ${core}`).not.toBe(true);
  });

  it("showed the target's echoes, redacted by the key's name, where a run printed its answers", () => {
    const shown = outputs.filter((out) => /\[redacted [a-z-]+\]/.test(out.stdout));
    expect(shown.map((out) => out.name)).toEqual(
      expect.arrayContaining([
        'explore seed 1',
        'replay of a recording, concurrency 1',
        'replay of a HAR against the target',
      ]),
    );
    const all = outputs.map((out) => out.stdout + (out.json ?? '') + (out.junit ?? '')).join('');
    for (const label of ['api-key', 'readonly-key', 'other-account-key', 'inactive-key'])
      expect(all, label).toContain(`[redacted ${label}]`);
    expect(all).toContain('access_token=[redacted]');
  });

  it('wrote an HTML report wherever it wrote a JSON one, and no script in it', () => {
    for (const out of outputs) {
      expect(out.html === undefined, out.name).toBe(out.json === undefined);
      expect(out.html ?? '', out.name).not.toContain('<script');
    }
  });

  it('printed no control character of a name raw; its reports are valid JSON and XML', () => {
    const named = outputs.filter((out) => out.stdout.includes('pays \\x1b[2J'));
    expect(named.length).toBeGreaterThanOrEqual(5);
    for (const out of outputs) {
      expect(CONTROL.test(out.stdout), `${out.name}: stdout`).toBe(false);
      expect(CONTROL.test(out.stderr), `${out.name}: stderr`).toBe(false);
      if (out.json !== undefined) {
        expect(CONTROL.test(out.json), `${out.name}: json`).toBe(false);
        expect(() => JSON.parse(out.json!), out.name).not.toThrow();
      }
      if (out.html !== undefined)
        expect(CONTROL.test(out.html.replace(/[\n\t\r]/g, '')), `${out.name}: html`).toBe(false);
      if (out.junit !== undefined) {
        expect(CONTROL.test(out.junit.replace(/[\n\t\r]/g, '')), `${out.name}: junit`).toBe(false);
        expect(() => new SaxesParser().write(out.junit!).close(), out.name).not.toThrow();
      }
    }
  });

  it("sent the HAR's and the recording's access_token and sig on to no target", () => {
    const leaked = received.filter((line) =>
      [SECRETS.accessToken.core, SECRETS.sig.core, SECRETS.deployment.core].some((core) =>
        line.includes(core),
      ),
    );
    expect(leaked).toEqual([]);
  });
});
