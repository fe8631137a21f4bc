/**
 * `answers-contract init` copies what a target answered into its draft only escaped: a token or a
 * member name holding a line break, a quote or a `#` stays inside its comment or its string and
 * can never add a key of its own to the description.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { parse } from 'yaml';
import { draftTarget } from '../../src/contract/init.ts';
import { parseTargetDescription } from '../../src/contract/target-api/load.ts';

const HOSTILE = 'x\'\ninjected: true\n# "\\';
let server: Server;
let base: string;

beforeAll(async () => {
  server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://x');
    response.setHeader('content-type', 'application/json');
    if (!url.pathname.endsWith('/v1/collections')) {
      response.statusCode = 404;
      response.end('{}');
      return;
    }
    const one = url.searchParams.get('limit') === '1';
    const items = [
      { id: 'c1', name: 'one', metadata: {}, object_count: 0, [HOSTILE]: 1 },
      { id: 'c2', name: 'two', metadata: {}, object_count: 0, [HOSTILE]: 2 },
    ];
    // A next-page token and a total whose member name carry a line break and a new key.
    response.end(
      JSON.stringify({
        data: one ? items.slice(0, 1) : items,
        next: one ? HOSTILE : null,
        [`total${HOSTILE}`]: 2,
      }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

it('a token and member names with line breaks and quotes stay escaped in the draft', async () => {
  const draft = await draftTarget(base, 'k');
  expect(draft).toContain("x'\\ninjected: true"); // the token, escaped in its comment
  const keys = (value: unknown): string[] =>
    value && typeof value === 'object'
      ? Object.entries(value).flatMap(([key, inner]) => [key, ...keys(inner)])
      : [];
  expect(keys(parse(draft))).not.toContain('injected');
  expect(() => parseTargetDescription(draft, 'draft.yaml')).not.toThrow();
});
