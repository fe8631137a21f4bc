/**
 * The spec-only server (issue 48): written from the spec alone by someone who had not read the
 * kit's code, in a style unlike the independent server's (a `Link` header for every next page,
 * bodies that are the metadata or the content themselves, limits per field, a cascade and a
 * search index that complete within documented windows), with 17 flaws of its writer's choosing
 * (flaws.ts; DESIGN.md says every choice). Described by target.yaml as its CI owner would, from
 * DESIGN.md. Its own smoke run and flaw probes run here first: the server is what it says.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { CHECKS } from '../../src/contract/checks/index.ts';
import { runContract } from '../../src/contract/runner.ts';
import { loadTargetFile } from '../../src/contract/target-api/load.ts';
import { startSpecOnlyServer, type SpecOnlyServer } from './server.ts';

const HERE = fileURLToPath(new URL('.', import.meta.url));

/** `node --import tsx <script>` in this folder: its exit code and output. */
function script(name: string): Promise<{ code: number; output: string }> {
  return new Promise((done) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', `${HERE}${name}`],
      { timeout: 60_000 },
      (error, stdout, stderr) =>
        done({
          code: error ? (typeof error.code === 'number' ? error.code : 1) : 0,
          output: stdout + stderr,
        }),
    );
  });
}

let server: SpecOnlyServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('the spec-only server', () => {
  it('passes its own smoke run, and each flaw fails its probe while the correct server passes it', async () => {
    const smoke = await script('smoke.ts');
    expect(smoke.code, smoke.output).toBe(0);
    const flaws = await script('flaws-check.ts');
    expect(flaws.code, flaws.output).toBe(0);
  }, 90_000);

  it('the fixed suite, destructive, finds no failure and leaves nothing behind', async () => {
    server = await startSpecOnlyServer({});
    const { alpha, beta } = server.keys;
    const report = await runContract({
      baseUrl: server.url,
      keys: {
        full: alpha.full,
        readonly: alpha.readOnly,
        otherAccount: beta.full,
        inactive: alpha.inactive,
      },
      checks: CHECKS,
      destructive: true,
      description: await loadTargetFile(`${HERE}target.yaml`),
      settleMs: 1_000,
    });
    expect(report.results.filter((r) => r.outcome === 'fail')).toEqual([]);
    expect(report.leftBehind).toEqual([]);
  }, 60_000);
});
