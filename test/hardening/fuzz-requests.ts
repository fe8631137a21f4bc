/**
 * Random requests: a JSON-serialisable description of one request ({@link RequestCase}), its
 * fast-check arbitrary, the oracle every response must satisfy, and {@link replayRequest} for
 * regression tests.
 */
import fc from 'fast-check';
import { expect } from 'vitest';
import { createMock, type AnswersMock } from '../../src/index.ts';
import type { HeaderBag, MockRequest } from '../../src/core/http.ts';
import { validateResponse } from '../../src/openapi/response-validation.ts';
import { OPERATIONS } from '../../src/openapi/operations.ts';
import { matchRoute } from '../../src/core/router.ts';
import { defaultState } from '../../src/seed/default-state.ts';
import { DEV_KEYS } from '../../src/seed/dev-keys.ts';
import { jsonEqual, observe, type Observed } from './fuzz-support.ts';

/** A body: text, raw bytes (base64), or the concatenation of parts (`[text, times]` repeats). */
export type BodyCase =
  { text: string } | { base64: string } | { parts: Array<string | [string, number]> };

/** One request, as plain JSON so that a counterexample can be pasted into a regression test. */
export interface RequestCase {
  method: string;
  /** The path as sent (percent-encoded, no query string). */
  path: string;
  /** The query string without `?`. */
  query: string;
  headers: Array<[string, string]>;
  body?: BodyCase | undefined;
  /** Set as an adapter would after a body past the size limit. */
  bodyTooLarge?: boolean | undefined;
}

export const API_PREFIXES = ['/api/answers/v1', '/api/answers', '/v1'];
/** The instant the fuzzed mocks are frozen at. */
export const NOW = '2026-11-22T12:00:00.000Z';

const ALL_KEYS = DEV_KEYS.map((k) => k.key);
const collections = defaultState.collections;
const objects = defaultState.objects;

export function bodyBytes(body: BodyCase | undefined): Uint8Array | undefined {
  if (!body) return undefined;
  if ('text' in body) return new TextEncoder().encode(body.text);
  if ('base64' in body) return new Uint8Array(Buffer.from(body.base64, 'base64'));
  const text = body.parts.map((p) => (typeof p === 'string' ? p : p[0].repeat(p[1]))).join('');
  return new TextEncoder().encode(text);
}

/** Headers as WHATWG `Headers` normalise them; pairs Headers refuses are left out. */
export function headersOf(pairs: Array<[string, string]>): Headers {
  const headers = new Headers();
  for (const [name, value] of pairs) {
    try {
      headers.append(name, value);
    } catch {
      // Not a valid header name or value: no transport could carry it either.
    }
  }
  return headers;
}

export function toMockRequest(c: RequestCase): MockRequest {
  return {
    method: c.method,
    path: c.path,
    query: new URLSearchParams(c.query),
    headers: headersOf(c.headers),
    body: bodyBytes(c.body),
    bodyTooLarge: c.bodyTooLarge,
  };
}

// ---------------------------------------------------------------------------------------------
// Arbitraries

const oddSegment = fc.oneof(
  fc.constantFrom(
    '',
    '.',
    '..',
    '%',
    '%2F',
    '%2f..%2f',
    '%ZZ',
    '%00',
    '%E9',
    '%C3%A9',
    '%F0%9F%92%A9',
    '%ED%A0%80',
    'é',
    '💩',
    ' ',
    'a'.repeat(128),
    'a'.repeat(129),
    'col_' + 'z'.repeat(20),
    'obj_' + '0'.repeat(20),
    '__proto__',
    'constructor',
    'toString',
    '{collection_id}',
    'collections',
    'objects',
    'search',
    'null',
  ),
  fc.string({ maxLength: 12 }).map(encodeURIComponent),
  fc.string({ maxLength: 12 }),
  fc
    .uint8Array({ maxLength: 6 })
    .map((bytes) => [...bytes].map((b) => `%${b.toString(16).padStart(2, '0')}`).join('')),
);

const collectionSegment = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...collections.map((c) => c.id)) },
  { weight: 1, arbitrary: fc.constant('col_00000000000000000000') },
  { weight: 2, arbitrary: oddSegment },
);

const objectPath = fc.oneof(
  {
    weight: 4,
    arbitrary: fc
      .constantFrom(...objects)
      .map((o) => `/collections/${o.collection_id}/objects/${o.id}`),
  },
  {
    weight: 2,
    arbitrary: fc
      .tuple(collectionSegment, fc.oneof(fc.constantFrom(...objects.map((o) => o.id)), oddSegment))
      .map(([c, o]) => `/collections/${c}/objects/${o}`),
  },
);

const routePath = fc.oneof(
  { weight: 3, arbitrary: fc.constant('/collections') },
  { weight: 3, arbitrary: collectionSegment.map((c) => `/collections/${c}`) },
  { weight: 3, arbitrary: collectionSegment.map((c) => `/collections/${c}/objects`) },
  { weight: 4, arbitrary: objectPath },
  { weight: 3, arbitrary: fc.constant('/search') },
  {
    weight: 1,
    arbitrary: fc.constantFrom('/collections/', '/search/', '/', '', '/collections//objects'),
  },
  { weight: 1, arbitrary: fc.array(oddSegment, { maxLength: 5 }).map((s) => `/${s.join('/')}`) },
);

const prefix = fc.oneof(
  { weight: 12, arbitrary: fc.constantFrom(...API_PREFIXES) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      '',
      '/api',
      '/v2',
      '/API/answers/v1',
      '/api/answers/v1/',
      '//api/answers/v1',
      '/api/answers/v1/v1',
      '/__mock',
      '/api%2Fanswers/v1',
    ),
  },
);

const method = fc.oneof(
  { weight: 20, arbitrary: fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE') },
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      'HEAD',
      'OPTIONS',
      'TRACE',
      'CONNECT',
      'get',
      'Post',
      'patch',
      'PROPFIND',
      'PURGE',
      'M-SEARCH',
      'FOO',
    ),
  },
  { weight: 1, arbitrary: fc.stringMatching(/^[A-Za-z-]{1,10}$/) },
);

const someKey = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...ALL_KEYS) },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      'answers_test_full_acmf',
      'answers_test_full_acme=',
      'answers_test_full_acme ',
      'ANSWERS_TEST_FULL_ACME',
      'a'.repeat(513),
      '',
      'answers_test_full_acme,answers_test_full_acme',
    ),
  },
  { weight: 1, arbitrary: fc.string({ maxLength: 30 }) },
);

type Pairs = Array<[string, string]>;

const auth: fc.Arbitrary<Pairs> = fc.oneof(
  { weight: 2, arbitrary: fc.constant<Pairs>([]) },
  { weight: 8, arbitrary: someKey.map((k): Pairs => [['authorization', `Bearer ${k}`]]) },
  { weight: 3, arbitrary: someKey.map((k): Pairs => [['x-answers-api-key', k]]) },
  {
    weight: 2,
    arbitrary: fc.tuple(someKey, fc.boolean(), someKey).map(([a, same, b]): Pairs => [
      ['authorization', `Bearer ${a}`],
      ['x-answers-api-key', same ? a : b],
    ]),
  },
  {
    weight: 2,
    arbitrary: fc
      .tuple(
        fc.constantFrom(
          'Bearer',
          'Bearer ',
          'Bearer  ',
          'bearer ',
          'BEARER ',
          'Basic ',
          'Token ',
          '',
          'Bearer\t',
        ),
        someKey,
        fc.constantFrom('', ' ', ' extra', ', Bearer x'),
      )
      .map(([scheme, key, tail]): Pairs => [['authorization', `${scheme}${key}${tail}`]]),
  },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.constantFrom(...ALL_KEYS), fc.constantFrom(...ALL_KEYS))
      .map(([a, b]): Pairs => [
        ['authorization', `Bearer ${a}`],
        ['authorization', `Bearer ${b}`],
      ]),
  },
  { weight: 1, arbitrary: fc.string({ maxLength: 40 }).map((v): Pairs => [['authorization', v]]) },
);

const contentType = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.constantFrom(
      'application/json',
      'application/json; charset=utf-8',
      'application/merge-patch+json',
    ),
  },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      'APPLICATION/JSON',
      'text/plain',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
      'application/problem+json',
      ';',
      '',
      'application/json, text/plain',
      'application/json;charset=latin1',
    ),
  },
  { weight: 1, arbitrary: fc.string({ maxLength: 20 }) },
);

const extraHeaders: fc.Arbitrary<Pairs> = fc.array(
  fc.oneof(
    contentType.map((v): [string, string] => ['content-type', v]),
    fc
      .constantFrom(
        'code=429',
        'code=404',
        'code=500',
        'code=200',
        'code=999',
        'code=abc',
        'return=minimal',
        'code=401, respond-async',
      )
      .map((v): [string, string] => ['prefer', v]),
    fc
      .constantFrom('gzip', 'identity', 'br', '')
      .map((v): [string, string] => ['content-encoding', v]),
    fc.tuple(
      fc.constantFrom('accept', 'x-request-id', 'origin', 'cookie', 'x-forwarded-for', 'x-custom'),
      fc.string({ maxLength: 20 }),
    ),
  ),
  { maxLength: 3 },
);

/** Valid cursors of the default seed (seed 1), and where they came from, for the query fuzz. */
export interface Cursors {
  list: string[];
  search: string[];
}

const queryValue = (cursors: Cursors) => ({
  limit: fc.oneof(
    fc.constantFrom(
      '0',
      '1',
      '2',
      '20',
      '100',
      '101',
      '-1',
      '1.0',
      '1e2',
      '2.5',
      ' 5',
      '5 ',
      '0x10',
      'NaN',
      'Infinity',
      '',
      '99999999999999999999',
      '1e400',
    ),
    fc.integer({ min: -5, max: 200 }).map(String),
  ),
  cursor: fc.oneof(
    fc.constantFrom(...cursors.list, ...cursors.search),
    fc.constantFrom(...cursors.list).map((c) => `${c.slice(0, -1)}${c.endsWith('a') ? 'b' : 'a'}`),
    fc.constantFrom('', '.', 'a.b', 'e30.0', '%', 'x'.repeat(1025)),
    fc.string({ maxLength: 40 }),
  ),
  order: fc.constantFrom('asc', 'desc', 'ASC', '', 'random', 'asc,desc'),
});

const queryString = (cursors: Cursors) => {
  const values = queryValue(cursors);
  const pair = fc.oneof(
    values.limit.map((v) => ['limit', v]),
    values.cursor.map((v) => ['cursor', v]),
    values.order.map((v) => ['order', v]),
    fc.tuple(fc.constantFrom('query', 'collection_ids', 'key', 'api_key', 'x'), fc.string()),
  );
  return fc
    .array(pair, { maxLength: 4 })
    .map((pairs) => new URLSearchParams(pairs as Array<[string, string]>).toString());
};

/** A JSON object with keys that stress prototypes and empty names. */
const jsonObject = fc
  .array(
    fc.tuple(
      fc.oneof(
        fc.constantFrom('title', 'tags', '__proto__', 'constructor', 'toString', ''),
        fc.string({ maxLength: 8 }),
      ),
      fc.jsonValue({ maxDepth: 3 }),
    ),
    { maxLength: 5 },
  )
  .map((entries) => Object.fromEntries(entries));

const collectionBody = fc.record(
  {
    name: fc.oneof(
      { weight: 4, arbitrary: fc.string({ maxLength: 110 }) },
      { weight: 2, arbitrary: fc.constantFrom(...collections.map((c) => c.name)) },
      { weight: 1, arbitrary: fc.jsonValue() },
    ),
    metadata: jsonObject,
  },
  { requiredKeys: [] },
);
const objectBody = fc.record(
  {
    content: fc.oneof(
      { weight: 4, arbitrary: jsonObject },
      { weight: 1, arbitrary: fc.jsonValue() },
    ),
  },
  { requiredKeys: [] },
);
const searchBody = (cursors: Cursors) =>
  fc.record(
    {
      query: fc.oneof(fc.string({ maxLength: 20 }), fc.constantFrom('billing', 'the policy')),
      limit: fc.oneof(fc.integer({ min: -2, max: 120 }), fc.jsonValue()),
      collection_ids: fc.array(
        fc.oneof(fc.constantFrom(...collections.map((c) => c.id)), fc.string()),
        { maxLength: 4 },
      ),
      cursor: queryValue(cursors).cursor,
    },
    { requiredKeys: [] },
  );
const systemFieldsBody = fc.record(
  {
    id: fc.constant('col_aaaaaaaaaaaaaaaaaaaa'),
    created_at: fc.constant(NOW),
    version: fc.integer(),
    content: jsonObject,
    name: fc.string(),
  },
  { requiredKeys: [] },
);

const plausibleBody = (cursors: Cursors) =>
  fc.oneof(collectionBody, objectBody, searchBody(cursors), systemFieldsBody);

/** A body of the shape the operation at `method` `path` takes, mostly. */
const bodyFor = (cursors: Cursors, method: string, path: string): fc.Arbitrary<unknown> => {
  const fitting = path.endsWith('/search')
    ? searchBody(cursors)
    : /\/objects/.test(path)
      ? objectBody
      : collectionBody;
  return fc.oneof(
    { weight: 5, arbitrary: fitting },
    { weight: 1, arbitrary: plausibleBody(cursors) },
  );
};

/** Numbers JSON can write but a double cannot hold exactly, or at all. */
const numberEdgeBody: fc.Arbitrary<BodyCase> = fc
  .tuple(
    fc.constantFrom('1e400', '-1e400', '1e-400', '123456789012345678901234567890', '-0'),
    fc.constantFrom('{"content":{"n":%}}', '{"content":{"a":[1,{"b":%}]}}'),
  )
  .map(([n, template]) => ({ text: template.replace('%', n) }));

const body = (cursors: Cursors): fc.Arbitrary<BodyCase | undefined> =>
  fc.oneof(
    { weight: 4, arbitrary: fc.constant(undefined) },
    { weight: 10, arbitrary: plausibleBody(cursors).map((v) => ({ text: JSON.stringify(v) })) },
    { weight: 2, arbitrary: fc.jsonValue().map((v) => ({ text: JSON.stringify(v) })) },
    { weight: 1, arbitrary: fc.string({ maxLength: 40 }).map((text) => ({ text })) },
    {
      weight: 1,
      arbitrary: fc
        .uint8Array({ maxLength: 64 })
        .map((b) => ({ base64: Buffer.from(b).toString('base64') })),
    },
    {
      // Large strings, up to past the 1 MiB limit.
      weight: 1,
      arbitrary: fc
        .constantFrom(1_000, 100_000, 1_048_500, 1_048_600, 1_100_000)
        .map((n) => ({ parts: ['{"content":{"a":"', ['x', n] as [string, number], '"}}'] })),
    },
    {
      // Deeply nested arrays or objects, in content, metadata or a search body.
      weight: 1,
      arbitrary: fc
        .tuple(
          fc.constantFrom<[string, string]>(
            ['{"content":{"a":', '}}'],
            ['{"name":"n","metadata":{"a":', '}}'],
            ['{"query":', '}'],
          ),
          fc.constantFrom<[string, string]>(['[', ']'], ['{"a":', '}']),
          fc.integer({ min: 1, max: 20_000 }),
        )
        .map(([[head, tail], [open, close], depth]) => ({
          parts: [
            head,
            [open, depth] as [string, number],
            '1',
            [close, depth] as [string, number],
            tail,
          ],
        })),
    },
    { weight: 1, arbitrary: numberEdgeBody },
  );

/** A method and a route that belong together (an operation of the API), ids random. */
const aimedRoute: fc.Arbitrary<[string, string]> = fc.oneof(
  fc.constantFrom<[string, string]>(['GET', '/collections'], ['POST', '/collections']),
  fc.constant<[string, string]>(['POST', '/search']),
  collectionSegment.chain((c) =>
    fc.constantFrom<[string, string]>(
      ['GET', `/collections/${c}`],
      ['PATCH', `/collections/${c}`],
      ['DELETE', `/collections/${c}`],
      ['GET', `/collections/${c}/objects`],
      ['POST', `/collections/${c}/objects`],
    ),
  ),
  objectPath.chain((p) =>
    fc.constantFrom<[string, string]>(['GET', p], ['PUT', p], ['PATCH', p], ['DELETE', p]),
  ),
);

/** Mostly a key that may do everything, so that requests get past authentication. */
const aimedAuth: fc.Arbitrary<Pairs> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc
      .constantFrom('answers_test_full_acme', 'answers_test_full_globex')
      .map((k): Pairs => [['authorization', `Bearer ${k}`]]),
  },
  { weight: 1, arbitrary: auth },
);

const aimedHeaders: fc.Arbitrary<Pairs> = fc
  .tuple(
    fc.oneof(
      { weight: 8, arbitrary: fc.constant('application/json') },
      { weight: 1, arbitrary: contentType },
    ),
    fc.oneof({ weight: 4, arbitrary: fc.constant([]) }, { weight: 1, arbitrary: extraHeaders }),
  )
  .map(([type, extra]): Pairs => [['content-type', type], ...extra]);

/**
 * Random requests against the default seed: three in four aimed at an operation (method and
 * route that belong together, mostly a permitted key, a body of the operation's shape), the
 * rest anything at all.
 */
export function requestCase(cursors: Cursors): fc.Arbitrary<RequestCase> {
  const aimed = aimedRoute.chain(([verb, route]) =>
    fc.record({
      route: fc.constant<[string, string]>([verb, route]),
      prefix: fc.constantFrom(...API_PREFIXES),
      query: fc.oneof(fc.constant(''), queryString(cursors)),
      auth: aimedAuth,
      extra: aimedHeaders,
      body: ['GET', 'DELETE'].includes(verb)
        ? fc.constant(undefined)
        : fc.oneof(
            {
              weight: 6,
              arbitrary: bodyFor(cursors, verb, route).map((v) => ({ text: JSON.stringify(v) })),
            },
            { weight: 1, arbitrary: body(cursors) },
            { weight: route.includes('/objects') ? 1 : 0, arbitrary: numberEdgeBody },
          ),
      bodyTooLarge: fc.constant(false),
    }),
  );
  const wild = fc.record({
    route: fc.tuple(method, routePath),
    prefix,
    query: fc.oneof(fc.constant(''), queryString(cursors)),
    auth,
    extra: extraHeaders,
    body: body(cursors),
    bodyTooLarge: fc.oneof({ weight: 30, arbitrary: fc.constant(false) }, fc.constant(true)),
  });
  return fc.oneof({ weight: 3, arbitrary: aimed }, { weight: 1, arbitrary: wild }).map((r) => ({
    method: r.route[0],
    path: `${r.prefix}${r.route[1]}` || '/',
    query: r.query,
    headers: [...r.auth, ...r.extra],
    ...(r.body ? { body: r.body } : {}),
    ...(r.bodyTooLarge ? { bodyTooLarge: true } : {}),
  }));
}

/** Collects valid cursors of every kind from a mock on the default seed. */
export async function collectCursors(mock: AnswersMock): Promise<Cursors> {
  const cursorOf = async (request: MockRequest) => {
    const response = await mock.handle(request);
    return JSON.parse(response.body ?? '{}').next_cursor as string;
  };
  const get = (key: string, path: string, query: string) => ({
    method: 'GET',
    path: `/api/answers/v1${path}`,
    query: new URLSearchParams(query),
    headers: new Headers({ authorization: `Bearer ${key}` }),
  });
  const acme = collections.find((c) => c.account_id === 'acme')!;
  const search = {
    method: 'POST',
    path: '/api/answers/v1/search',
    query: new URLSearchParams(),
    headers: new Headers({
      authorization: 'Bearer answers_test_full_acme',
      'content-type': 'application/json',
    }),
    body: new TextEncoder().encode(JSON.stringify({ query: 'the', limit: 1 })),
  };
  const list = await Promise.all([
    cursorOf(get('answers_test_full_acme', '/collections', 'limit=1')),
    cursorOf(get('answers_test_full_acme', '/collections', 'limit=1&order=desc')),
    cursorOf(get('answers_test_full_globex', '/collections', 'limit=1')),
    cursorOf(get('answers_test_full_acme', `/collections/${acme.id}/objects`, 'limit=2')),
  ]);
  return {
    list: list.filter(Boolean),
    search: [await cursorOf(search)].filter(Boolean),
  };
}

// ---------------------------------------------------------------------------------------------
// The oracle

/** The permission an API operation needs, from the README's table (not from the code). */
function permissionOf(method: string, path: string): 'read' | 'write' | 'search' {
  if (method.toUpperCase() === 'POST' && path.endsWith('/search')) return 'search';
  return method.toUpperCase() === 'GET' ? 'read' : 'write';
}

/** Whether the request carries one valid, active key with the permission the operation needs. */
export function isAuthorized(method: string, path: string, headers: HeaderBag): boolean {
  const presented: string[] = [];
  // GAP-AUTH-FORM: a header repeated with the same value is that value (repeats arrive joined
  // with ", "); repeated with different values, it is malformed.
  const single = (value: string | null) => {
    if (value === null || !value.includes(',')) return value;
    const parts = value.split(',').map((part) => part.trim());
    return parts.every((part) => part === parts[0]) ? parts[0]! : undefined;
  };
  const authorization = single(headers.get('authorization'));
  if (authorization === undefined) return false;
  if (authorization !== null) {
    const match = /^bearer (.+)$/i.exec(authorization);
    if (!match) return false;
    presented.push(match[1]!);
  }
  const header = single(headers.get('x-answers-api-key'));
  if (header === undefined) return false;
  if (header !== null) presented.push(header);
  if (presented.length === 0 || new Set(presented).size !== 1) return false;
  const key = DEV_KEYS.find((k) => k.key === presented[0]);
  return !!key && key.active && key.permissions.includes(permissionOf(method, path));
}

/** The status a `Prefer: code=NNN` header forces, which the mock may answer even when 5xx. */
function forcedStatus(headers: HeaderBag): number | undefined {
  const match = /(?:^|[,;\s])code=(\d{3})(?:$|[,;\s])/i.exec(headers.get('prefer') ?? '');
  return match ? Number(match[1]) : undefined;
}

/**
 * What every response must satisfy, whatever the request: never a 5xx (unless a 5xx was forced
 * with `Prefer`), never a 2xx without a valid active key with the operation's permission, every
 * error a problem JSON body whose `status` and `code` match, every 401 a challenge, and every
 * answer of a routed operation valid against `openapi.yaml`. Returns the violations.
 */
export function violations(
  request: { method: string; path: string; headers: HeaderBag },
  response: Observed,
  options: { http?: boolean } = {},
): string[] {
  const found: string[] = [];
  const { status } = response;
  const method = request.method.toUpperCase();
  const forced = forcedStatus(request.headers);
  if (status >= 500 && !(forced === status && isAuthorized(method, request.path, request.headers)))
    found.push(`status ${status}`);
  if (status < 100 || status > 599) found.push(`status ${status} is not an HTTP status`);
  const preflight = options.http && method === 'OPTIONS';
  if (status >= 200 && status < 300 && !preflight) {
    if (!API_PREFIXES.some((p) => request.path.startsWith(`${p}/`)))
      found.push(`${status} outside the API prefixes`);
    if (!isAuthorized(method, request.path, request.headers))
      found.push(`${status} without a valid active key with the operation's permission`);
  }
  const hasBody = !(options.http && method === 'HEAD');
  if (status >= 400 && hasBody) {
    const type = response.headers.get('content-type');
    if (type !== 'application/problem+json') found.push(`error content type ${type}`);
    const problem = response.json;
    if (typeof problem !== 'object' || problem === null) found.push('error body is not JSON');
    else {
      if (typeof problem.code !== 'string' || problem.code === '')
        found.push('problem without code');
      if (problem.status !== status) found.push(`problem status ${problem.status} != ${status}`);
    }
  }
  if (status === 401 && !response.headers.get('www-authenticate'))
    found.push('401 without WWW-Authenticate');
  const match = matchRoute(request.path);
  const operation = match?.operations.get(method);
  if (operation && OPERATIONS.has(operation.operationId) && hasBody) {
    for (const v of validateResponse(operation.operationId, {
      status,
      headers: response.headers,
      body: response.text,
    }))
      found.push(`openapi.yaml: ${v}`);
  }
  return found;
}

/**
 * Sends a case through `mock.handle` and checks it: the handler never throws, the response
 * satisfies {@link violations}, and a refused request (or any GET) changes nothing.
 * Returns whether the state may have changed (a successful write).
 */
export async function checkThroughHandle(
  mock: AnswersMock,
  c: RequestCase,
  before: string,
): Promise<boolean> {
  const request = toMockRequest(c);
  let observed: Observed;
  try {
    const response = await mock.handle(request);
    observed = observe(response.status, new Headers(response.headers), response.body ?? '');
  } catch (error) {
    throw new Error(`mock.handle threw: ${String(error)}`, { cause: error });
  }
  const found = violations(request, observed);
  // What is stored is what was sent: a created or replaced object answers the content as sent.
  const method = request.method.toUpperCase();
  if (
    (observed.status === 201 && method === 'POST') ||
    (observed.status === 200 && method === 'PUT')
  ) {
    const sent = JSON.parse(new TextDecoder().decode(request.body));
    if ('content' in observed.json && !jsonEqual(observed.json.content, sent.content))
      found.push(`stored content ${JSON.stringify(observed.json.content)} is not the content sent`);
  }
  if (found.length > 0) {
    throw new Error(
      `${c.method} ${c.path}?${c.query} -> ${observed.status}: ${found.join('; ')}\n${observed.text.slice(0, 300)}`,
    );
  }
  const changed = observed.status < 300 && request.method.toUpperCase() !== 'GET';
  if (!changed && JSON.stringify(mock.controls.export()) !== before) {
    throw new Error(`${c.method} ${c.path} -> ${observed.status} changed the state`);
  }
  return changed;
}

/** Replays one random-request counterexample against a fresh mock (for `test/regressions/`). */
export async function replayRequest(c: RequestCase): Promise<void> {
  const mock = await createMock({ now: NOW });
  const before = JSON.stringify(mock.controls.export());
  await expect(checkThroughHandle(mock, c, before)).resolves.toBeTypeOf('boolean');
}
