/**
 * `answers-contract replay` never calls a replay that could judge nothing a pass: a HAR replayed
 * `--against-mock` without the keys it was recorded with, or a target that answers nothing at
 * the description's paths, is a set-up error (exit 2) that says what stopped it, in the console,
 * `--json` and `--junit`, and leaves nothing behind.
 */
import { readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReplayReport } from '../../src/contract/replay/outcome.ts';
import { createMock } from '../../src/index.ts';
import { startServer } from '../../src/node/server.ts';
import { emptyState } from '../../src/seed/empty-state.ts';
import { startIndependentServer, type IndependentServer } from '../independent/server.ts';
import { TARGET } from '../independent/suite-runs.ts';
import { contract } from '../support/contract-cli.ts';
import { harOfTraffic } from '../support/har-of-traffic.ts';
import { KEYS } from '../support/keys.ts';
import { recordFlows } from '../support/recorded-flows.ts';
import { scratchDir } from '../support/scratch.ts';

let dir: string;
let server: IndependentServer;
beforeAll(async () => {
  dir = await scratchDir('replay-set-up-');
  server = await startIndependentServer();
});
afterAll(async () => {
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

describe('replay that judged nothing', () => {
  it('a HAR replayed --against-mock without its keys: no ✓, what stopped it, exit 2, in --json and --junit too', async () => {
    const har = await harOfTraffic(server, dir);
    const json = join(dir, 'no-keys.json');
    const junit = join(dir, 'no-keys.xml');
    const run = await contract([
      'replay',
      har,
      '--against-mock',
      '--target',
      TARGET,
      '--json',
      json,
      '--junit',
      junit,
    ]);
    expect(run.stderr).toBe('');
    expect(run.code, run.stdout).toBe(2);
    expect(run.stdout).not.toContain('✓');
    expect(run.stdout).toMatch(/Nothing was judged/);
    // What stopped it, and how to give what it lacks.
    expect(run.stdout).toMatch(/a key that served the consumer and that the run was not given/);
    expect(run.stdout).toMatch(/--api-key/);
    expect(run.stdout).toMatch(/0 agreed/);
    const report = JSON.parse(await readFile(json, 'utf8')) as ReplayReport;
    expect(report.passed).toBe(false);
    expect(report.nothingJudged).toMatch(/a key that served the consumer/);
    const xml = await readFile(junit, 'utf8');
    expect(xml).toMatch(/<testsuite [^>]*errors="1"/);
    expect(xml).toMatch(/<error message="nothing judged/);
  }, 60_000);

  it('with the keys given, the same HAR is judged and agrees (exit 0)', async () => {
    const har = await harOfTraffic(server, dir);
    const run = await contract(['replay', har, '--against-mock', '--target', TARGET], {
      ANSWERS_API_KEY: server.keys.full,
      ANSWERS_READONLY_KEY: server.keys.readonly,
    });
    expect(run.code, run.stdout).toBe(0);
    expect(run.stdout).toMatch(/^✓ traffic-\d+\.har > Recipes page \(9 judged\)$/m);
  }, 60_000);

  it('a file none of whose tests could be judged fails the run (exit 2), naming the file, though another file was judged', async () => {
    const flows = join(dir, 'flows.json');
    await writeFile(flows, JSON.stringify(await recordFlows(1)));
    const readsOnly = join(dir, 'reads-only.json');
    // A test that only lists, with a key the run is not given (`inactive`): nothing to judge.
    await writeFile(
      readsOnly,
      JSON.stringify({
        format: 'answers-recording/1',
        sequences: [
          {
            name: 'reads.test.ts > lists with the inactive key',
            exchanges: [
              {
                operation: 'listCollections',
                method: 'GET',
                path: '/collections',
                query: '',
                key: 'inactive',
                status: 401,
                response: { code: 'unauthorized', message: 'inactive key' },
              },
            ],
          },
        ],
      }),
    );
    const mock = await startServer({
      mock: await createMock({ initialState: emptyState() }),
      port: 0,
      quiet: true,
    });
    try {
      const run = await contract([
        'replay',
        flows,
        readsOnly,
        '--base-url',
        `${mock.url}/api/answers/v1`,
        '--api-key',
        KEYS.full,
        '--readonly-key',
        KEYS.readonly,
        '--destructive',
      ]);
      expect(run.code, run.stdout).toBe(2);
      expect(run.stdout).toMatch(/^✓ flows\.test\.ts > flow 0 \(9 judged\)$/m);
      expect(run.stdout).not.toMatch(/✓ reads\.test\.ts/);
      expect(run.stdout).toMatch(
        /^- reads\.test\.ts > lists with the inactive key: nothing judged \(1 no inactive key was given\)$/m,
      );
      expect(run.stdout).toMatch(/1 agreed, 0 diverged, 0 not replayed, 1 judged nothing\./);
      expect(run.stdout).toMatch(
        /^Nothing was judged in \S*reads-only\.json: no inactive key was given \(--inactive-key gives it\)\.$/m,
      );
      expect(run.stdout).toContain('Left behind: nothing');
    } finally {
      await mock.close();
    }
  }, 60_000);
});

describe('replay against a target that answers nothing at the description’s paths', () => {
  it('a server that did not adopt our openapi.yaml, without --target: exit 2, one line as the suite says it, nothing sent after it', async () => {
    const flows = join(dir, 'flows-not-adopted.json');
    await writeFile(flows, JSON.stringify(await recordFlows(2)));
    const listed = async () => {
      const response = await fetch(`${server.url}/v1/collections?size=100`, {
        headers: { authorization: `Bearer ${server.keys.full}` },
      });
      return JSON.stringify(await response.json());
    };
    const before = await listed();
    const run = await contract([
      'replay',
      flows,
      '--base-url',
      server.url,
      '--api-key',
      server.keys.full,
      '--destructive',
    ]);
    expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toMatch(
      /^answers-contract: GET \S+\/collections answered 404: is --base-url right for .*openapi\.yaml/,
    );
    // The suite says the same of the same target.
    const suite = await contract(['--base-url', server.url, '--api-key', server.keys.full]);
    expect(suite.code).toBe(2);
    expect(suite.stderr).toBe(run.stderr);
    expect(await listed()).toBe(before);
  }, 60_000);

  it('one that answers 405 at every path is the same set-up error (exit 2), for replay as for the suite', async () => {
    const flows = join(dir, 'flows-405.json');
    await writeFile(flows, JSON.stringify(await recordFlows(1)));
    let after = 0;
    const methodless = createServer((request, response) => {
      if (request.method !== 'GET') after += 1;
      response.writeHead(405, { allow: 'OPTIONS', 'content-type': 'application/json' });
      response.end('{"error":"method not allowed"}');
    });
    await new Promise<void>((resolve) => methodless.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(methodless.address() as AddressInfo).port}`;
    try {
      const args = ['--base-url', url, '--api-key', KEYS.full];
      const run = await contract(['replay', flows, ...args, '--destructive']);
      expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(2);
      expect(run.stdout).toBe('');
      expect(run.stderr).toMatch(/GET \S+\/collections answered 405: is --base-url right for/);
      expect(after).toBe(0);
      const suite = await contract(args);
      expect(suite.code).toBe(2);
      expect(suite.stderr).toBe(run.stderr);
    } finally {
      await new Promise((resolve) => methodless.close(resolve));
    }
  }, 60_000);
});
