/**
 * A walk of explore that did not reach the end of the list never passes a rule about the whole
 * list (each collection once, COLL-LIST-2; their order, COLL-LIST-3): they are not judged, and
 * counted as not judged, with why. The independent server, behind a loopback proxy that moves
 * the next page's link out of the body (as a server that gives it only in a `Link` header looks
 * to a description that names the body's link): page 1, full, names no next page.
 */
import { afterEach, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { startExploreModel } from '../../src/bin/mock-target.ts';
import { ContractClient } from '../../src/contract/client.ts';
import { Coverage } from '../../src/contract/explore/comparison.ts';
import type { ExploreModel } from '../../src/contract/explore/explore.ts';
import { runStep, type Step } from '../../src/contract/explore/steps/index.ts';
import { World } from '../../src/contract/explore/world.ts';
import { DEFAULT_DESCRIPTION } from '../../src/contract/target-api/description.ts';
import { loadTargetFile } from '../../src/contract/target-api/load.ts';
import { Target } from '../../src/contract/target-api/target.ts';
import { startIndependentServer, type IndependentServer } from '../independent/server.ts';
import { startProxy, type RunningProxy } from '../support/proxy.ts';

let server: IndependentServer | undefined;
let proxy: RunningProxy | undefined;
let model: ExploreModel | undefined;
afterEach(async () => {
  await proxy?.close();
  await server?.close();
  await model?.stop();
  proxy = server = model = undefined;
});

/** A page of the list without its next link in the body. */
function linkElsewhere(json: unknown): unknown {
  const page = json as { links?: Record<string, unknown> };
  if (!page.links) return json;
  const { next: _next, ...links } = page.links;
  return { ...page, links };
}

it.each([
  { name: 'a walk of the list', steps: [{ kind: 'walk', pageSize: 5, key: 'full' }] },
  {
    name: 'a walk with writes between pages',
    steps: [{ kind: 'walkWhileWriting', pageSize: 5, key: 'full', writes: [null] }],
  },
] as Array<{ name: string; steps: Step[] }>)(
  '$name that saw one full page and no next page judges no rule of the whole list, and counts it as not judged',
  async ({ steps }) => {
    server = await startIndependentServer();
    proxy = await startProxy(server.url, {
      after: (request, status, json) =>
        request.method === 'GET' && request.url.startsWith('/v1/collections') && status === 200
          ? linkElsewhere(json)
          : json,
    });
    model = await startExploreModel();
    const description = await loadTargetFile(
      fileURLToPath(new URL('../independent/target.yaml', import.meta.url)),
    );
    const coverage = new Coverage();
    const world = new World(
      new Target(description, new ContractClient(proxy.url, server.keys.full, false), false),
      new Target(
        DEFAULT_DESCRIPTION,
        new ContractClient(model.baseUrl, model.keys.full, false),
        false,
      ),
      server.keys,
      model.keys,
      'reach',
      1,
      coverage,
    );
    try {
      // Three of the run's, newest: on page 1 with two of the server's own.
      for (const step of [{ kind: 'createCollections', key: 'full', count: 3 }, ...steps] as Step[])
        await runStep(world, step);
    } finally {
      await world.run.cleanup(server.keys);
    }
    for (const clause of ['COLL-LIST-2', 'COLL-LIST-3'])
      expect(coverage.clauses.has(clause)).toBe(false);
    const why = [...(coverage.notJudged.get('COLL-LIST-2')?.keys() ?? [])];
    expect(why).toEqual([
      expect.stringMatching(
        /could not ask for page 2: page 1 came back full \(5 items, .*only page 1 \(5 items\) was seen$/,
      ),
    ]);
  },
  20_000,
);
