/**
 * Issue 46: a target that accepts a request and then stalls (sends nothing; sends its headers,
 * then nothing; trickles its body a byte at a time) held the suite, `explore` (even with
 * `--budget`) and `replay` until they were killed. Each command here runs against the mock
 * behind a target that stalls its third create, with `--request-timeout 2s`, under
 * `node --expose-gc` with a full collection every 250 ms (test/support/collect-garbage.ts): it
 * must end within its deadline plus the clean-up's 15 s, exit 2, delete what it made and print
 * `Left behind: nothing`. And `explore --budget` ends a run whose requests all stall past it.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseRunName } from '../../src/contract/target-api/run-name.ts';
import { createMock } from '../../src/index.ts';
import { startServer } from '../../src/node/server.ts';
import { KEYS } from '../support/keys.ts';
import { recordFlows } from '../support/recorded-flows.ts';
import { startStallingTarget, type StallForm } from '../support/stalling-target.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const PREFIX = '/api/answers/v1';
const REQUEST_TIMEOUT_MS = 2_000;
/** The clean-up's deadline after an interruption or a stall (LIMITS.cleanupDeadlineMs). */
const CLEANUP_MS = 15_000;
/**
 * Past this after the stall began (or the run's start, when nothing stalled) the run is killed
 * and the test fails: it did not end by itself. Generous: a loaded machine starts slowly.
 */
const KILL_AFTER_STALL_MS = REQUEST_TIMEOUT_MS + CLEANUP_MS + 15_000;
const KILL_AFTER_START_MS = 90_000;

let folder: string;
let recording: string;

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'stalled-target-'));
  recording = join(folder, 'flows.json');
  await writeFile(recording, JSON.stringify(await recordFlows(12)));
});

afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

interface StalledRun {
  code: number | null;
  stdout: string;
  stderr: string;
  /** From the first stalled request (or, without one, the run's first request) to the exit. */
  endedAfterMs: number;
  stalled: boolean;
  killed: boolean;
  /** The run's collections the mock still holds after the run exited. */
  left: string[];
}

const CREATE = /\/collections(\?.*)?$/;

/** Runs `args` against the mock behind a target that stalls the third create, as `form` says. */
async function stalledRun(form: StallForm, args: string[]): Promise<StalledRun> {
  const mock = await createMock();
  const server = await startServer({ mock, port: 0, quiet: true });
  let creates = 0;
  let firstRequestAt: number | undefined;
  let killed = false;
  let kill = () => {};
  let guard: NodeJS.Timeout | undefined;
  const target = await startStallingTarget(server.url, {
    form,
    stalls: (request) => {
      firstRequestAt ??= performance.now();
      if (request.method !== 'POST' || !CREATE.test(request.url ?? '')) return false;
      creates += 1;
      if (creates !== 3) return false;
      clearTimeout(guard);
      guard = setTimeout(kill, KILL_AFTER_STALL_MS);
      return true;
    },
  });
  try {
    const child = spawn(
      process.execPath,
      [
        '--expose-gc',
        '--import',
        'tsx',
        '--import',
        './test/support/collect-garbage.ts',
        'src/bin/answers-contract.ts',
        ...args,
        '--base-url',
        `${target.url}${PREFIX}`,
        '--api-key',
        KEYS.full,
        '--other-account-key',
        KEYS.globex,
        '--destructive',
      ],
      { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    kill = () => {
      killed = true;
      child.kill('SIGKILL');
    };
    guard = setTimeout(kill, KILL_AFTER_START_MS);
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    clearTimeout(guard);
    const ended = performance.now();
    const left = mock.controls
      .export()
      .collections.filter((collection) => parseRunName(collection.name) !== undefined)
      .map((collection) => collection.id);
    const from = target.stalledAt ?? firstRequestAt ?? ended;
    return {
      code,
      stdout,
      stderr,
      endedAfterMs: ended - from,
      stalled: target.stalledAt !== undefined,
      killed,
      left,
    };
  } finally {
    await target.close();
    await server.close();
  }
}

const COMMANDS = {
  suite: () => [],
  explore: () => ['explore', '--seed', '3', '--budget', '60s'],
  replay: () => ['replay', recording],
} as const;

describe('a stalled target ends the run at its request deadline; the run cleans up and exits 2', () => {
  for (const command of ['suite', 'explore', 'replay'] as const)
    for (const form of ['silent', 'headers', 'trickle'] as const)
      it(`${command}, the third create ${form === 'silent' ? 'answered with nothing' : form === 'headers' ? 'answered with headers, then nothing' : 'answered a byte every 250 ms'}: exit 2, "Left behind: nothing", within the deadline + 15 s`, async () => {
        const run = await stalledRun(form, [
          ...COMMANDS[command](),
          '--request-timeout',
          `${REQUEST_TIMEOUT_MS}ms`,
        ]);
        const said = `${run.stdout}\n${run.stderr}`;
        expect({ stalled: run.stalled, killed: run.killed, code: run.code }, said).toEqual({
          stalled: true,
          killed: false,
          code: 2,
        });
        expect(run.stderr).toMatch(
          /^answers-contract: the target stopped answering: POST \S*\/collections got no whole answer within 2 s \(--request-timeout\); the run stopped there$/m,
        );
        expect(run.stderr).not.toMatch(/internal error|\n\s+at /);
        expect(run.stdout).toContain('Left behind: nothing');
        expect(run.left).toEqual([]);
        expect(run.endedAfterMs).toBeLessThan(REQUEST_TIMEOUT_MS + CLEANUP_MS);
      }, 120_000);
});

describe("explore's --budget ends a run whose requests stall past it", () => {
  it('a create that never answers, --request-timeout 10m, --budget 3s: the budget stops it, cleans up, "Left behind: nothing"', async () => {
    const run = await stalledRun('silent', [
      'explore',
      '--seed',
      '3',
      '--budget',
      '3s',
      '--request-timeout',
      '10m',
    ]);
    const said = `${run.stdout}\n${run.stderr}`;
    expect({ stalled: run.stalled, killed: run.killed, code: run.code }, said).toEqual({
      stalled: true,
      killed: false,
      code: 0,
    });
    expect(run.stdout).toMatch(
      /^The budget stopped \d+ sequences in flight: their requests were given up/m,
    );
    expect(run.stdout).toContain('Left behind: nothing');
    expect(run.left).toEqual([]);
    expect(run.endedAfterMs).toBeLessThan(3_000 + CLEANUP_MS);
  }, 120_000);
});
