/**
 * `answers-contract replay` never calls a replay that could judge nothing a pass: a HAR replayed
 * `--against-mock` without the keys it was recorded with, or a target that answers nothing at
 * the description's paths, is a set-up error (exit 2) that says what stopped it, in the console,
 * `--json` and `--junit`, and leaves nothing behind.
 */
import { rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startIndependentServer, type IndependentServer } from '../independent/server.ts';
import { contract } from '../support/contract-cli.ts';
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
