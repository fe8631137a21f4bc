/**
 * Found reading the code for issue 47 ("no clause-id literal outside the judges"): a finding of
 * Prism's proxy (`--via-prism`, its `sl-violations` header) was named by the decision of the
 * operation's body, but at the spec level the suite sent no operation with its requests, and a
 * fallback named every such finding GAP-COLL-FIELDS: a search's broken hits were reported as a
 * collection's fields. The operation now goes with every request the description sends.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ContractClient } from '../../src/contract/client.ts';
import { CheckFailure } from '../../src/contract/failure.ts';
import { DEFAULT_DESCRIPTION } from '../../src/contract/target-api/description.ts';
import { Target } from '../../src/contract/target-api/target.ts';

let server: Server;
let base: string;
beforeAll(async () => {
  // Every answer is a 200 on which the proxy in between reports one error.
  server = createServer((request, response) => {
    request.resume();
    response.writeHead(200, {
      'content-type': 'application/json',
      'sl-violations': JSON.stringify([{ severity: 'Error', message: 'hits is not an array' }]),
    });
    response.end('{"hits":1}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/answers/v1`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

it.each([
  ['search', 'GAP-SEARCH-RESP'],
  ['getObject', 'GAP-OBJ-FIELDS'],
  ['listCollections', 'GAP-PAGE-FIELDS'],
] as const)(
  'a proxy finding on %s names that operation’s decision, at the spec level',
  async (operation, decision) => {
    const target = new Target(DEFAULT_DESCRIPTION, new ContractClient(base, 'k', false), false);
    const failed = await target
      .send(operation, { params: { collection_id: 'c1', object_id: 'o1' }, body: { query: 'x' } })
      .then(
        () => expect.fail('the finding was not reported'),
        (error: unknown) => error,
      );
    expect(failed).toBeInstanceOf(CheckFailure);
    expect((failed as CheckFailure).clause).toBe(decision);
  },
);
