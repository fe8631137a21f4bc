import type { ClauseId } from '../../generated/clauses.ts';
import { defineCheck, type CheckContext } from '../check.ts';
import { DECISION, methodRefused, refusedAsDecided } from '../judges/document.ts';
import { together } from '../judges/verdict.ts';
import type { OperationName } from '../target-api/description.ts';
import type { SendOptions } from '../target-api/target.ts';

/** One bad request of our document's, through the target's description, and what it must get. */
interface Case extends SendOptions {
  operation: OperationName;
  status: number;
  code?: string;
}

/**
 * Sends each request and expects `status` (and `code`, when given), as our document decides
 * (`decision`); every miss is told.
 */
async function expectAll(context: CheckContext, decision: ClauseId, cases: Case[]): Promise<void> {
  const verdicts = [];
  for (const { operation, status, code, ...options } of cases) {
    const response = await context.target.send(operation, options);
    verdicts.push(refusedAsDecided(decision, response, status, code, response.json?.code));
  }
  const verdict = together(verdicts);
  if (verdict) context.judged(verdict);
}

const list = (query: Record<string, string>, status = 400, code = 'invalid_parameter'): Case => ({
  operation: 'listCollections',
  query,
  status,
  code,
});

export const negativeChecks = [
  defineCheck({
    id: 'pagination.bad-values',
    title: 'refuses bad pagination values with 400, never a server error',
    level: 'profile',
    uses: ['listCollections'],
    async run(context) {
      const { target } = context;
      const { pageSize = 'limit', pageToken = 'cursor' } = target.description.paging;
      const page = await target.send('listCollections', { query: { [pageSize]: '1' } });
      const cursor = target.nextOf(page);
      const sizes = ['0', '-1', '2.5', 'abc', '101', '1e3', '99999999999999999999', ''];
      const cases = sizes.map((size) => list({ [pageSize]: size }));
      cases.push(
        {
          operation: 'listCollections',
          query: [
            [pageSize, '1'],
            [pageSize, '2'],
          ],
          status: 400,
          code: 'invalid_parameter',
        },
        list({ order: 'sideways' }),
        list({ [pageToken]: 'not-a-cursor' }, 400, 'invalid_cursor'),
        list({ [pageToken]: 'A'.repeat(1025) }),
      );
      if (cursor) {
        const tampered = `${cursor.slice(0, -2)}${cursor.endsWith('zz') ? 'aa' : 'zz'}`;
        cases.push(
          list({ [pageToken]: tampered }, 400, 'invalid_cursor'),
          list({ order: 'desc', [pageToken]: cursor }, 400, 'invalid_cursor'),
        );
      }
      await expectAll(context, DECISION.pageParams, cases);
    },
  }),
  defineCheck({
    id: 'ids.bad-values',
    title: 'answers odd identifiers with 404 (too long: 400), never a server error or data',
    level: 'profile',
    uses: ['getCollection'],
    async run(context) {
      const { target } = context;
      const odd = [
        '../../etc/passwd',
        'col\u0000',
        "' OR 1=1--",
        '<script>',
        '😀',
        'col_' + 'a'.repeat(20),
      ];
      const cases: Case[] = odd.map((id) => ({
        operation: 'getCollection',
        params: { collection_id: id },
        status: 404,
        code: 'collection_not_found',
      }));
      cases.push({
        operation: 'getCollection',
        params: { collection_id: 'a'.repeat(200) },
        status: 400,
        code: 'invalid_parameter',
      });
      const collectionId = context.destructive
        ? (await context.run.main()).id
        : target.collectionIdOf(target.itemsOf((await target.send('listCollections')).json)?.[0]);
      if (collectionId && target.offers('getObject'))
        for (const id of ['../..', 'obj\u0000', 'obj_' + 'z'.repeat(20)])
          cases.push({
            operation: 'getObject',
            params: { collection_id: collectionId, object_id: id },
            status: 404,
            code: 'object_not_found',
          });
      await expectAll(context, DECISION.ids, cases);
    },
  }),
  defineCheck({
    id: 'methods.not-allowed',
    title: 'answers a method a path does not support with 405 and an Allow header',
    level: 'profile',
    uses: ['listCollections', 'getCollection', 'search'],
    async run(context) {
      const { target } = context;
      // @note The methods each described path offers, from the description: the check sends
      // one it does not (by design the one request of the suite that no operation describes).
      const operations = target.description.operations;
      const offered = (operation: OperationName) => {
        const template = operations[operation]!.path;
        return Object.values(operations)
          .filter((other) => other.path === template)
          .map((other) => other.method.toUpperCase());
      };
      for (const operation of ['listCollections', 'getCollection', 'search'] as const) {
        const allowed = offered(operation);
        const method = ['PUT', 'DELETE', 'POST', 'PATCH', 'GET'].find((m) => !allowed.includes(m));
        if (!method) continue;
        const { path } = target.route(operation, { collection_id: 'col_00000000000000000000' });
        // @note direct: a proxy that routes by the document answers unknown methods itself.
        const response = await target.http.request(method, path, { direct: true });
        context.judged(
          methodRefused(
            `${method} ${path}`,
            response.status,
            response.headers.get('allow'),
            allowed,
          ),
        );
      }
    },
  }),
  defineCheck({
    id: 'bodies.bad',
    title: 'refuses malformed JSON (400), other media types (415) and wrong shapes (400)',
    level: 'profile',
    uses: ['search'],
    async run(context) {
      // @note The search only reads, so these bad bodies are safe to send to any target.
      // @note direct: a proxy cannot pass on a body it cannot parse.
      const search = (
        raw: string,
        status: number,
        code: string,
        headers?: Record<string, string>,
      ): Case => ({
        operation: 'search',
        raw,
        status,
        code,
        headers,
        direct: true,
      });
      await expectAll(context, DECISION.media, [
        search('{"query":', 400, 'malformed_json'),
        search('{"query":"x"}', 415, 'unsupported_media_type', { 'content-type': 'text/plain' }),
        search('[]', 400, 'validation_failed'),
        search('{"query":"x","unknown":1}', 400, 'validation_failed'),
        search('{"query":""}', 400, 'validation_failed'),
        search('{"query":"x","limit":0}', 400, 'validation_failed'),
        search('{"__proto__":{"x":1},"query":"x"}', 400, 'validation_failed'),
      ]);
    },
  }),
  defineCheck({
    id: 'order.auth-first',
    title: 'authenticates before it validates: a bad request without a key is a 401',
    level: 'profile',
    uses: ['listCollections', 'getCollection', 'search'],
    async run(context) {
      const { pageSize = 'limit' } = context.target.description.paging;
      await expectAll(context, DECISION.orderCheck, [
        { operation: 'listCollections', query: { [pageSize]: '0' }, key: null, status: 401 },
        { operation: 'search', raw: '{"query":', key: null, status: 401 },
        {
          operation: 'getCollection',
          params: { collection_id: 'a'.repeat(200) },
          key: null,
          status: 401,
        },
      ]);
    },
  }),
];
