/**
 * Issue 46, the high finding: a target whose create answers the id of a collection that existed
 * before the run. Replay mapped the recorded id to it and sent the test's object create, rename
 * and delete there: the user's collection got an object, a run-shaped name, and was deleted,
 * and the run said `1 agreed`. Whatever writes decides "is this ours" in one place
 * (`RunData.claim`): an id listed before the run, or an answer named otherwise than the name
 * sent, is refused (COLL-1) and nothing is sent to it, in the suite, explore and replay alike.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { CHECKS } from '../../src/contract/checks/index.ts';
import { explore } from '../../src/contract/explore/explore.ts';
import { replay } from '../../src/contract/replay/replay.ts';
import { runContract } from '../../src/contract/runner.ts';
import { recordingMock } from '../../src/core/recorder.ts';
import { createMock, type AnswersMock } from '../../src/index.ts';
import { startExploreModel } from '../../src/node/index.ts';
import { startServer, type RunningServer } from '../../src/node/server.ts';
import type { Recording } from '../../src/openapi/recording.ts';
import { DEV_KEYS } from '../../src/seed/dev-keys.ts';
import { emptyState } from '../../src/seed/empty-state.ts';
import { KEYS } from '../support/keys.ts';
import { startProxy, type RunningProxy } from '../support/proxy.ts';

const PREFIX = '/api/answers/v1';
const COLLECTION_CREATE = /\/collections(\?.*)?$/;
const KEYS_OF_RUN = { full: KEYS.full, readonly: KEYS.readonly, otherAccount: KEYS.globex };

let server: RunningServer | undefined;
let proxy: RunningProxy | undefined;
afterEach(async () => {
  await proxy?.close();
  await server?.close();
  proxy = server = undefined;
});

type Shape = 'their id and name' | 'their id, our name';

/** The user's collection as the mock holds it: its record and its objects, whole. */
function userData(mock: AnswersMock, id: string) {
  const state = mock.controls.export();
  return {
    collection: state.collections.find((c) => c.id === id),
    objects: state.objects.filter((o) => o.collection_id === id),
  };
}

/** The kit's mock behind a proxy whose collection create answers the user's collection's id. */
async function answeringTheUsersId(shape: Shape) {
  const mock = await createMock();
  const user = mock.controls.export().collections.find((c) => c.account_id === 'acme')!;
  const before = userData(mock, user.id);
  expect(before.objects.length).toBeGreaterThan(0);
  server = await startServer({ mock, port: 0, quiet: true });
  proxy = await startProxy(server.url, {
    after: (request, status, json) => {
      if (request.method !== 'POST' || status !== 201 || !COLLECTION_CREATE.test(request.url))
        return json;
      const created = json as { id: string; name: string };
      return shape === 'their id and name'
        ? { ...created, id: user.id, name: user.name }
        : { ...created, id: user.id };
    },
  });
  return { mock, userId: user.id, before, baseUrl: `${proxy.url}${PREFIX}` };
}

/** A consumer test of 5 exchanges: a create, an object added, a rename, a delete, a get. */
async function recordedTest(): Promise<Recording> {
  const mock = await createMock({ initialState: emptyState() });
  const recorder = recordingMock(
    mock,
    () => DEV_KEYS,
    () => 'recipes.test.ts > renames and deletes',
  );
  const recording = await startServer({ mock: recorder.mock, port: 0, quiet: true });
  const send = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${recording.url}${PREFIX}${path}`, {
      method,
      headers: { authorization: `Bearer ${KEYS.full}`, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return response.status === 204 ? undefined : ((await response.json()) as { id: string });
  };
  try {
    const { id } = (await send('POST', '/collections', { name: 'Recipes', metadata: {} }))!;
    await send('POST', `/collections/${id}/objects`, { content: { title: 'ragù' } });
    await send('PATCH', `/collections/${id}`, { name: 'Recipes, renamed' });
    await send('DELETE', `/collections/${id}`);
    await send('GET', `/collections/${id}`);
    return recorder.recording();
  } finally {
    await recording.close();
  }
}

describe('a create that answers a collection that existed before the run', () => {
  it.each<Shape>(['their id and name', 'their id, our name'])(
    'the suite leaves the user’s collection as it was (%s), and says the create is not ours',
    async (shape) => {
      const { mock, userId, before, baseUrl } = await answeringTheUsersId(shape);
      const report = await runContract({
        baseUrl,
        keys: KEYS_OF_RUN,
        checks: CHECKS,
        destructive: true,
      });
      expect(userData(mock, userId)).toEqual(before);
      expect(report.failed).toBe(true);
      const reasons = report.results.map((r) => r.reason ?? '').join('\n');
      expect(reasons).toContain(`collection ${userId}`);
      expect(reasons).toMatch(/not ours/);
    },
    60_000,
  );

  it.each<Shape>(['their id and name', 'their id, our name'])(
    'explore leaves the user’s collection as it was (%s), with a COLL-1 story',
    async (shape) => {
      const { mock, userId, before, baseUrl } = await answeringTheUsersId(shape);
      const report = await explore({
        baseUrl,
        keys: KEYS_OF_RUN,
        startModel: startExploreModel,
        seed: 7,
        maxRequests: 400,
      });
      expect(userData(mock, userId)).toEqual(before);
      expect(report.story?.clause).toBe('COLL-1');
      expect(report.story?.message).toContain(userId);
    },
    60_000,
  );

  it.each<Shape>(['their id and name', 'their id, our name'])(
    'replay sends nothing to the user’s collection (%s): the test diverges at its create, COLL-1',
    async (shape) => {
      const recording = await recordedTest();
      const { mock, userId, before, baseUrl } = await answeringTheUsersId(shape);
      const report = await replay({
        baseUrl,
        keys: KEYS_OF_RUN,
        recording,
        destructive: true,
      });
      expect(userData(mock, userId)).toEqual(before);
      const [test] = report.sequences;
      expect(test!.divergence?.clause).toBe('COLL-1');
      expect(test!.divergence?.message).toContain(userId);
      expect(test!.outcome.judged).toBe(0);
    },
    60_000,
  );
});

describe('a delete reads the collection back first', () => {
  /**
   * The mock behind a proxy that shows every collection the run makes, in its get and in the
   * list, named by someone else (an id handed on to another user, a cache gone wrong).
   */
  async function showingAnotherName() {
    const mock = await createMock();
    server = await startServer({ mock, port: 0, quiet: true });
    const deletes: string[] = [];
    const renamed = (collection: unknown): unknown => {
      const shown = collection as { name?: unknown };
      return typeof shown?.name === 'string' && shown.name.startsWith('answers-contract-')
        ? { ...shown, name: 'Quarterly reports' }
        : collection;
    };
    proxy = await startProxy(server.url, {
      after: (request, status, json) => {
        if (request.method !== 'GET' || status !== 200) return json;
        if (/\/collections\/[^/?]+$/.test(request.url)) return renamed(json);
        const list = json as { data?: unknown[] };
        return /\/collections(\?.*)?$/.test(request.url) && Array.isArray(list.data)
          ? { ...list, data: list.data.map(renamed) }
          : json;
      },
      sent: (request) => {
        if (request.method === 'DELETE' && /\/collections\/[^/?]+$/.test(request.url))
          deletes.push(request.url);
      },
    });
    return { deletes, baseUrl: `${proxy.url}${PREFIX}` };
  }

  it('explore sends no delete to a collection shown with a name the run never gave it', async () => {
    const { deletes, baseUrl } = await showingAnotherName();
    const report = await explore({
      baseUrl,
      keys: KEYS_OF_RUN,
      startModel: startExploreModel,
      seed: 7,
      maxRequests: 400,
    });
    // @note Since issue 48 a name shown is judged (SVC-1): the get after the create shows
    // another name before any delete is tried, and the clean-up still deletes nothing of it.
    expect(report.story?.clause).toBe('SVC-1');
    expect(report.story?.message).toMatch(/Quarterly reports/);
    expect(report.leftBehind.join('\n')).toMatch(/not ours, not deleted/);
    expect(deletes).toEqual([]);
  }, 60_000);

  it('replay sends no delete to a collection shown with a name the run never gave it', async () => {
    const recording = await recordedTest();
    const { deletes, baseUrl } = await showingAnotherName();
    const report = await replay({ baseUrl, keys: KEYS_OF_RUN, recording, destructive: true });
    const [test] = report.sequences;
    expect(test!.divergence?.clause).toBe('COLL-1');
    expect(test!.divergence?.message).toMatch(/a name the run never gave it/);
    expect(deletes).toEqual([]);
    expect(report.leftBehind.join()).toMatch(/not ours/);
  }, 60_000);
});
