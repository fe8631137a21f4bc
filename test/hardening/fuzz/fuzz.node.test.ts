/**
 * Property-based fuzzing of the mock (issue "Hardening", part 2): random requests through
 * `mock.handle`, and a smaller batch over real HTTP. Random sequences of operations are explore's,
 * judged by the independent server (sequences.node.test.ts). Fixed seed; `FUZZ_RUNS` sets the number of random requests (`npm run fuzz`: 2000). A failure
 * prints the shrunk counterexample and the regression test file to add under test/regressions/.
 */
import fc from 'fast-check';
import { METHODS } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMock, type AnswersMock } from '../../../src/index.ts';
import { startServer, type RunningServer } from '../../../src/node/server.ts';
import {
  checkThroughHandle,
  collectCursors,
  replayRequest,
  requestCase,
} from '../fuzz-requests.ts';
import type { Cursors } from './request-bodies.ts';
import { bodyBytes, headersOf, NOW, type RequestCase } from './request-case.ts';
import { violations } from './request-oracle.ts';
import { checkProperty, FUZZ_RUNS, FUZZ_SEED, observe } from '../fuzz-support.ts';

fc.configureGlobal({ seed: FUZZ_SEED });

const HTTP_RUNS = Math.max(50, Math.round(FUZZ_RUNS / 10));
const TIMEOUT = 60_000 + FUZZ_RUNS * 100;
const tried = { handle: 0, http: 0 };

/** What a failure report tells the developer to import (from test/regressions/) and call. */
const REQUEST_REPLAY = {
  kind: 'request',
  module: '../hardening/fuzz-requests.ts',
  replayer: replayRequest.name,
};

let mock: AnswersMock;
let cursors: Cursors;
let pristine: string;

beforeAll(async () => {
  mock = await createMock({ now: NOW });
  cursors = await collectCursors(mock);
  pristine = JSON.stringify(mock.controls.export());
});

afterAll(() => {
  console.log(
    `fuzz: ${tried.handle + tried.http} random requests ` +
      `(${tried.handle} through mock.handle, ${tried.http} over HTTP; seed ${FUZZ_SEED})`,
  );
});

describe('random requests', () => {
  it(
    'through mock.handle: no 5xx, no throw, no 2xx without a permitted key, problem JSON errors',
    async () => {
      tried.handle = await checkProperty(
        'random requests',
        REQUEST_REPLAY,
        fc
          .asyncProperty(requestCase(cursors), async (c) => {
            // A successful write is undone so that every run starts from the same state.
            if (await checkThroughHandle(mock, c, pristine)) await mock.controls.reset();
          })
          .beforeEach(async () => {
            if (JSON.stringify(mock.controls.export()) !== pristine) await mock.controls.reset();
          }),
        FUZZ_RUNS,
      );
    },
    TIMEOUT,
  );

  describe('over real HTTP', () => {
    let server: RunningServer;
    beforeAll(async () => {
      server = await startServer({ mock, port: 0, quiet: true, control: false });
    });
    afterAll(() => server.close());

    /**
     * The fetch request for a case, or undefined for what fetch cannot send, or what Node's HTTP
     * parser refuses before the adapter sees it (a method it does not know, e.g. lower-case
     * `patch`, which fetch sends as is).
     */
    function toFetch(c: RequestCase): Request | undefined {
      const method = c.method.toUpperCase();
      if (['HEAD', 'GET'].includes(method) && c.body) return undefined;
      const sent = ['DELETE', 'GET', 'HEAD', 'OPTIONS', 'POST', 'PUT'].includes(method)
        ? method
        : c.method;
      if (!METHODS.includes(sent)) return undefined;
      if (c.bodyTooLarge) return undefined; // only an adapter sets it
      try {
        const url = `${server.url}${c.path.startsWith('/') ? '' : '/'}${c.path}${c.query ? `?${c.query}` : ''}`;
        return new Request(url, {
          method: c.method,
          headers: headersOf(c.headers),
          body: bodyBytes(c.body) as BodyInit | undefined,
          redirect: 'manual',
        });
      } catch {
        return undefined;
      }
    }

    it(
      'through the node:http adapter: the same properties on the raw bytes received',
      async () => {
        tried.http = await checkProperty(
          'random requests over HTTP',
          REQUEST_REPLAY,
          fc
            .asyncProperty(
              requestCase(cursors).filter((c) => toFetch(c) !== undefined),
              async (c) => {
                const request = toFetch(c)!;
                const response = await fetch(request);
                const bytes = new Uint8Array(await response.arrayBuffer());
                const text = new TextDecoder().decode(bytes);
                const path = new URL(request.url).pathname;
                const found = violations(
                  { method: request.method, path, headers: request.headers },
                  observe(response.status, response.headers, text),
                  { http: true },
                );
                // The API is open to any origin; the control API (`/__mock`, even when turned
                // off) only to pages of this machine.
                if (
                  !path.startsWith('/__mock') &&
                  response.headers.get('access-control-allow-origin') !== '*'
                )
                  found.push('no CORS header');
                if (found.length > 0) {
                  throw new Error(
                    `${request.method} ${path} -> ${response.status}: ${found.join('; ')}\n${text.slice(0, 300)}`,
                  );
                }
                const changed = response.status < 300 && request.method !== 'GET';
                if (!changed && JSON.stringify(mock.controls.export()) !== pristine)
                  throw new Error(
                    `${request.method} ${path} -> ${response.status} changed the state`,
                  );
                if (changed) await mock.controls.reset();
              },
            )
            .beforeEach(async () => {
              if (JSON.stringify(mock.controls.export()) !== pristine) await mock.controls.reset();
            }),
          HTTP_RUNS,
        );
      },
      TIMEOUT,
    );
  });
});

describe('the replay hint of a failure report', () => {
  it.each([{ replay: REQUEST_REPLAY, replayer: replayRequest }])(
    '$replay.kind: names a function its module exports',
    async ({ replay, replayer }) => {
      expect(replay.replayer).toMatch(/^replay[A-Z]/);
      const from = new URL('../../regressions/', import.meta.url);
      const module = (await import(new URL(replay.module, from).href)) as Record<string, unknown>;
      expect(module[replay.replayer]).toBe(replayer);
    },
  );

  it('replays a printed (JSON) request on a fresh mock', async () => {
    for (const request of fc.sample(requestCase(cursors), { seed: FUZZ_SEED, numRuns: 3 }))
      await replayRequest(JSON.parse(JSON.stringify(request)));
  });
});
