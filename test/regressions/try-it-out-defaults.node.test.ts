/**
 * Found by the security review: Swagger UI's "Try it out" fills each parameter with its example,
 * and the document's example cursor was not a cursor, so the list answered 400 on the first try.
 * Every query parameter example of the list operations must now be one the mock accepts.
 */
import { expect, it } from 'vitest';
import { createMock } from '../../src/index.ts';
import { OPERATIONS } from '../../src/openapi/operations.ts';
import { send } from '../support/in-process.ts';

it.each(['listCollections', 'listObjects'])(
  'answers %s 200 with every query parameter at its example',
  async (operationId) => {
    const mock = await createMock();
    const operation = OPERATIONS.get(operationId)!;
    const query: Record<string, string> = {};
    for (const parameter of operation.parameters) {
      const example = (parameter as { example?: unknown }).example;
      if (parameter.in === 'query' && example !== undefined)
        query[parameter.name] = String(example);
    }
    const [collection] = mock.db.collections.findMany((q) => q.where({ account_id: 'acme' }));
    const path = operation.template.replace('{collection_id}', collection!.id);
    const answer = await send(mock, { path, query });
    expect(answer.status, JSON.stringify(answer.json)).toBe(200);
  },
);
