/**
 * The fixed suite's failures name the first difference too: object.get against a target whose
 * answer to a get changes one value deep in the content says where (its JSON pointer) and both
 * values, in its reason and as fields of its result (`--json`), where before it showed two
 * values cut at 120 characters, the target's the whole object from its system fields on.
 */
import { afterEach, expect, it } from 'vitest';
import { CHECKS } from '../../src/contract/checks/index.ts';
import { runContract } from '../../src/contract/runner.ts';
import { createMock } from '../../src/index.ts';
import { startServer, type RunningServer } from '../../src/node/server.ts';
import { KEYS } from '../support/keys.ts';
import { startProxy, type RunningProxy } from '../support/proxy.ts';

let server: RunningServer | undefined;
let proxy: RunningProxy | undefined;
afterEach(async () => {
  await proxy?.close();
  await server?.close();
  proxy = server = undefined;
});

it('object.get names the pointer and both values where the content came back changed', async () => {
  server = await startServer({ mock: await createMock(), port: 0, quiet: true });
  // The check sends { title, nested: { list: [1, { deep: 'kept' }] } }: a get answers 'lost'.
  proxy = await startProxy(server.url, {
    afterText: (request, _status, text) =>
      request.method === 'GET' && /\/objects\/[^/?]+$/.test(request.url)
        ? text.replace('"deep":"kept"', '"deep":"lost"')
        : text,
  });
  const report = await runContract({
    baseUrl: `${proxy.url}/api/answers/v1`,
    keys: { full: KEYS.full, otherAccount: KEYS.globex },
    checks: CHECKS.filter((check) => check.id === 'object.get'),
    destructive: true,
  });
  const [result] = report.results;
  expect(result).toMatchObject({
    id: 'object.get',
    outcome: 'fail',
    broken: 'OBJ-GET-1',
    reason:
      'its content: at /nested/list/1/deep, character 0 (counted in code points): what was sent has "kept" (U+006B), the target "lost" (U+006C)',
    difference: {
      pointer: '/nested/list/1/deep',
      offset: 0,
      expected: '"kept"',
      actual: '"lost"',
      at: { expected: 'U+006B', actual: 'U+006C' },
    },
  });
  expect(report.leftBehind).toEqual([]);
}, 60_000);
