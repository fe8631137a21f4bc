/**
 * Random requests: the fast-check arbitrary of a whole request ({@link requestCase}, from the parts
 * in fuzz/request-parts.ts and fuzz/request-bodies.ts), the check of one request through
 * `mock.handle` against the oracle (fuzz/request-oracle.ts), and {@link replayRequest} for
 * regression tests.
 */
import fc from 'fast-check';
import { expect } from 'vitest';
import { createMock, type AnswersMock } from '../../src/index.ts';
import type { MockRequest } from '../../src/core/http.ts';
import { defaultState } from '../../src/seed/default-state.ts';
import { jsonEqual, observe, type Observed } from './fuzz-support.ts';
import { body, bodyFor, numberEdgeBody, queryString, type Cursors } from './fuzz/request-bodies.ts';
import { API_PREFIXES, NOW, toMockRequest, type RequestCase } from './fuzz/request-case.ts';
import { violations } from './fuzz/request-oracle.ts';
import {
  auth,
  collectionSegment,
  contentType,
  extraHeaders,
  method,
  objectPath,
  prefix,
  routePath,
  type Pairs,
} from './fuzz/request-parts.ts';

const collections = defaultState.collections;

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
    const { response } = await mock.handle(request);
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
    const { response } = await mock.handle(request);
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
