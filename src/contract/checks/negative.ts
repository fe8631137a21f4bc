import { defineCheck, ensure, type CheckContext } from '../check.ts';

/** Sends each request and expects `status` (and `code`, when given); collects every miss. */
async function expectAll(
  context: CheckContext,
  cases: Array<{
    method: string;
    path: string;
    status: number;
    code?: string;
    operationId?: string;
    body?: unknown;
    key?: string | null;
    headers?: Record<string, string>;
    direct?: boolean;
  }>,
) {
  const misses: string[] = [];
  for (const c of cases) {
    const response = await context.http.request(c.method, c.path, {
      operationId: c.operationId,
      body: c.body,
      key: c.key,
      headers: c.headers,
      direct: c.direct,
    });
    if (response.status >= 500)
      misses.push(
        `${c.method} ${c.path} answered ${response.status}: a bad request must never be a server error`,
      );
    else if (response.status !== c.status)
      misses.push(`${c.method} ${c.path} answered ${response.status}, not ${c.status}`);
    else if (c.code && response.json?.code !== c.code)
      misses.push(`${c.method} ${c.path} answered code ${response.json?.code}, not ${c.code}`);
  }
  ensure(misses.length === 0, misses.join('; '));
}

export const negativeChecks = [
  defineCheck({
    id: 'pagination.bad-values',
    title: 'refuses bad pagination values with 400, never a server error',
    clauses: ['GAP-PAGE-PARAMS', 'GAP-LIMIT-PAGE'],
    level: 'profile',
    async run(context) {
      const page = await context.http.request('GET', '/collections?limit=1', {
        operationId: 'listCollections',
      });
      const cursor: string | null = page.json?.next_cursor ?? null;
      const limits = ['0', '-1', '2.5', 'abc', '101', '1e3', '99999999999999999999', ''];
      const cases = limits.map((limit) => ({
        method: 'GET',
        path: `/collections?limit=${limit}`,
        status: 400,
        code: 'invalid_parameter',
        operationId: 'listCollections',
      }));
      cases.push(
        {
          method: 'GET',
          path: '/collections?limit=1&limit=2',
          status: 400,
          code: 'invalid_parameter',
          operationId: 'listCollections',
        },
        {
          method: 'GET',
          path: '/collections?order=sideways',
          status: 400,
          code: 'invalid_parameter',
          operationId: 'listCollections',
        },
        {
          method: 'GET',
          path: '/collections?cursor=not-a-cursor',
          status: 400,
          code: 'invalid_cursor',
          operationId: 'listCollections',
        },
        {
          method: 'GET',
          path: `/collections?cursor=${'A'.repeat(1025)}`,
          status: 400,
          code: 'invalid_parameter',
          operationId: 'listCollections',
        },
      );
      if (cursor) {
        const tampered = `${cursor.slice(0, -2)}${cursor.endsWith('zz') ? 'aa' : 'zz'}`;
        cases.push(
          {
            method: 'GET',
            path: `/collections?cursor=${encodeURIComponent(tampered)}`,
            status: 400,
            code: 'invalid_cursor',
            operationId: 'listCollections',
          },
          {
            method: 'GET',
            path: `/collections?order=desc&cursor=${encodeURIComponent(cursor)}`,
            status: 400,
            code: 'invalid_cursor',
            operationId: 'listCollections',
          },
        );
      }
      await expectAll(context, cases);
    },
  }),
  defineCheck({
    id: 'ids.bad-values',
    title: 'answers odd identifiers with 404 (too long: 400), never a server error or data',
    clauses: ['GAP-IDS'],
    level: 'profile',
    async run(context) {
      // @note Not '%2E%2E': URL parsing turns it into '..' before it leaves the client.
      const odd = [
        '..%2F..%2Fetc%2Fpasswd',
        'col%00',
        '%27%20OR%201%3D1--',
        '%3Cscript%3E',
        '%F0%9F%98%80',
        'col_' + 'a'.repeat(20),
      ];
      const cases = odd.map((id) => ({
        method: 'GET',
        path: `/collections/${id}`,
        status: 404,
        code: 'collection_not_found',
        operationId: 'getCollection',
      }));
      cases.push({
        method: 'GET',
        path: `/collections/${'a'.repeat(200)}`,
        status: 400,
        code: 'invalid_parameter',
        operationId: 'getCollection',
      });
      if (!context.specOnly) {
        const { collection } = await context.data.main(context);
        for (const id of ['..%2F..', 'obj%00', 'obj_' + 'z'.repeat(20)]) {
          cases.push({
            method: 'GET',
            path: `/collections/${collection.id}/objects/${id}`,
            status: 404,
            code: 'object_not_found',
            operationId: 'getObject',
          });
        }
      }
      await expectAll(context, cases);
    },
  }),
  defineCheck({
    id: 'methods.not-allowed',
    title: 'answers a method a path does not support with 405 and an Allow header',
    clauses: ['GAP-METHODS'],
    level: 'profile',
    async run(context) {
      const cases: Array<[string, string, string[]]> = [
        ['PUT', '/collections', ['GET', 'POST']],
        ['DELETE', '/collections', ['GET', 'POST']],
        ['POST', '/collections/col_00000000000000000000', ['GET', 'PATCH', 'DELETE']],
        ['GET', '/search', ['POST']],
      ];
      for (const [method, path, allowed] of cases) {
        // @note direct: a proxy that routes by the document answers unknown methods itself.
        const response = await context.http.request(method, path, { direct: true });
        ensure(response.status === 405, `${method} ${path} answered ${response.status}, not 405`);
        const allow = (response.headers.get('allow') ?? '')
          .split(',')
          .map((m) => m.trim().toUpperCase());
        ensure(
          allowed.every((m) => allow.includes(m)),
          `${method} ${path}: Allow is "${response.headers.get('allow')}", expected ${allowed.join(', ')}`,
        );
      }
    },
  }),
  defineCheck({
    id: 'bodies.bad',
    title: 'refuses malformed JSON (400), other media types (415) and wrong shapes (400)',
    clauses: ['GAP-MEDIA', 'GAP-BODY-FIELDS', 'GAP-ERR-CODES'],
    level: 'profile',
    async run(context) {
      // @note /search only reads, so these bad bodies are safe to send to any target.
      // @note direct: a proxy cannot pass on a body it cannot parse.
      const search = {
        method: 'POST',
        path: '/search',
        operationId: 'searchObjects',
        direct: true,
      };
      await expectAll(context, [
        { ...search, body: '{"query":', status: 400, code: 'malformed_json' },
        {
          ...search,
          body: '{"query":"x"}',
          headers: { 'content-type': 'text/plain' },
          status: 415,
          code: 'unsupported_media_type',
        },
        { ...search, body: '[]', status: 400, code: 'validation_failed' },
        { ...search, body: '{"query":"x","unknown":1}', status: 400, code: 'validation_failed' },
        { ...search, body: '{"query":""}', status: 400, code: 'validation_failed' },
        { ...search, body: '{"query":"x","limit":0}', status: 400, code: 'validation_failed' },
        {
          ...search,
          body: '{"__proto__":{"x":1},"query":"x"}',
          status: 400,
          code: 'validation_failed',
        },
      ]);
    },
  }),
  defineCheck({
    id: 'order.auth-first',
    title: 'authenticates before it validates: a bad request without a key is a 401',
    clauses: ['GAP-ORDER-CHECK', 'AUTH-1'],
    level: 'profile',
    async run(context) {
      await expectAll(context, [
        {
          method: 'GET',
          path: '/collections?limit=0',
          key: null,
          status: 401,
          operationId: 'listCollections',
        },
        {
          method: 'POST',
          path: '/search',
          body: '{"query":',
          key: null,
          status: 401,
          operationId: 'searchObjects',
        },
        {
          method: 'GET',
          path: `/collections/${'a'.repeat(200)}`,
          key: null,
          status: 401,
          operationId: 'getCollection',
        },
      ]);
    },
  }),
];
