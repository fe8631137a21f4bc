/**
 * Issue 47: a walk of a list that did not reach the list's end passed a rule about the whole
 * list. Against a correct server that gives the next page only in a `Link` header (here the
 * mock behind a proxy that takes `next_cursor` out of the body), replay's walk read one full page
 * and took it for the whole list: "the list shows no collection the test deleted" (DEL-1)
 * was counted as agreed, though the deleted collection's place was on page 2. Now a rule about
 * the whole list is not judged after such a walk, with the reason; against the same server with
 * its cursor, it is judged.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { replay, type ReplayReport } from '../../src/contract/replay/replay.ts';
import { recordingMock } from '../../src/core/recorder.ts';
import { createMock } from '../../src/index.ts';
import { startServer, type RunningServer } from '../../src/node/server.ts';
import type { Recording } from '../../src/openapi/recording.ts';
import { DEV_KEYS } from '../../src/seed/dev-keys.ts';
import { emptyState } from '../../src/seed/empty-state.ts';
import { KEYS } from '../support/keys.ts';
import { startProxy, type RunningProxy } from '../support/proxy.ts';

const PREFIX = '/api/answers/v1';
const LIST = /\/collections(\?.*)?$/;
const KEYS_OF_RUN = { full: KEYS.full, readonly: KEYS.readonly, otherAccount: KEYS.globex };

let server: RunningServer | undefined;
let proxy: RunningProxy | undefined;
afterEach(async () => {
  await proxy?.close();
  await server?.close();
  proxy = server = undefined;
});

async function send(base: string, method: string, path: string, body?: unknown) {
  const response = await fetch(`${base}${PREFIX}${path}`, {
    method,
    headers: { authorization: `Bearer ${KEYS.full}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return response.status === 204 ? undefined : ((await response.json()) as { id?: string });
}

/** A consumer test recorded against the mock: a collection made, deleted, then the list read. */
async function recorded(): Promise<Recording> {
  const mock = await createMock({ initialState: emptyState() });
  const recorder = recordingMock(
    mock,
    () => DEV_KEYS,
    () => 'lists.test.ts > a deleted collection leaves the list',
  );
  const at = await startServer({ mock: recorder.mock, port: 0, quiet: true });
  try {
    const { id } = (await send(at.url, 'POST', '/collections', { name: 'Gone', metadata: {} }))!;
    await send(at.url, 'DELETE', `/collections/${id}`);
    await send(at.url, 'GET', '/collections?limit=100');
    return recorder.recording();
  } finally {
    await at.close();
  }
}

/**
 * Replays it on a mock whose account holds 101 collections already (a full page of 100, then one),
 * its cursor kept or not.
 */
async function replayed(cursor: 'in the body' | 'only in a Link header'): Promise<ReplayReport> {
  const recording = await recorded();
  server = await startServer({
    mock: await createMock({ initialState: emptyState() }),
    port: 0,
    quiet: true,
  });
  for (let n = 0; n < 101; n++)
    await send(server.url, 'POST', '/collections', { name: `theirs ${n}`, metadata: {} });
  proxy = await startProxy(server.url, {
    after: (request, status, json) => {
      if (cursor === 'in the body' || request.method !== 'GET' || !LIST.test(request.url))
        return json;
      const { next_cursor: _, ...page } = json as Record<string, unknown>;
      return page;
    },
  });
  return replay({
    baseUrl: `${proxy.url}${PREFIX}`,
    keys: KEYS_OF_RUN,
    recording,
    destructive: true,
  });
}

describe('replay of a list read after a delete', () => {
  it('a walk that ended on a full page with no next page to ask for: DEL-1 not judged, with the reason, never agreed', async () => {
    const report = await replayed('only in a Link header');
    expect(report.sequences.map((s) => s.divergence)).toEqual([undefined]);
    // Once, by the delete's own answer; never by the list.
    expect(report.coverage.clauses['DEL-1']).toBe(1);
    expect(Object.keys(report.coverage.notJudged['DEL-1'] ?? {})).toEqual([
      expect.stringMatching(/came back full .* with no next page at .*: only page 1 .* was seen/),
    ]);
    expect(report.leftBehind).toEqual([]);
  }, 30_000);

  it('the same server with its cursor in the body: the walk reaches the end, and DEL-1 is judged', async () => {
    const report = await replayed('in the body');
    expect(report.sequences.map((s) => s.divergence)).toEqual([undefined]);
    expect(report.coverage.clauses['DEL-1']).toBe(2);
    expect(report.coverage.notJudged['DEL-1']).toBeUndefined();
  }, 30_000);
});
