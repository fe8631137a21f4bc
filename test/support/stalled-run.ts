/**
 * Runs of the suite, `explore` and `replay` against the mock behind a target that stalls its
 * third create (test/support/stalling-target.ts), with `--request-timeout 2s`, under
 * `node --expose-gc` with a full collection every 250 ms (test/support/collect-garbage.ts): for
 * test/cli/stalled-target (a Latin square of commands and stall forms, on every Node line) and
 * test/contract/proofs/stalled-target-matrix (the rest of the matrix, once).
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import { parseRunName } from '../../src/contract/target-api/run-name.ts';
import { createMock } from '../../src/index.ts';
import { startServer } from '../../src/node/server.ts';
import { KEYS } from './keys.ts';
import { recordFlows } from './recorded-flows.ts';
import { startStallingTarget, type StallForm } from './stalling-target.ts';
import { binPath } from './bins.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const PREFIX = '/api/answers/v1';
const REQUEST_TIMEOUT_MS = 2_000;
/** The clean-up's deadline after an interruption or a stall (LIMITS.cleanupDeadlineMs). */
export const CLEANUP_MS = 15_000;
/**
 * Past this after the stall began (or the run's start, when nothing stalled) the run is killed
 * and the test fails: it did not end by itself. Generous: a loaded machine starts slowly.
 */
const KILL_AFTER_STALL_MS = REQUEST_TIMEOUT_MS + CLEANUP_MS + 15_000;
const KILL_AFTER_START_MS = 90_000;

/**
 * The recording `replay` is given, made once per worker on first use (modules are shared by
 * the files of a worker: no hooks here), removed by {@link removeRecording} in a file's afterAll.
 */
let recorded: Promise<{ folder: string; file: string }> | undefined;
function recordingFile(): Promise<{ folder: string; file: string }> {
  recorded ??= (async () => {
    const folder = await mkdtemp(join(tmpdir(), 'stalled-target-'));
    const file = join(folder, 'flows.json');
    await writeFile(file, JSON.stringify(await recordFlows(12)));
    return { folder, file };
  })();
  return recorded;
}
export async function removeRecording(): Promise<void> {
  const made = recorded;
  recorded = undefined;
  if (made) await rm((await made).folder, { recursive: true, force: true });
}

export interface StalledRun {
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
export async function stalledRun(form: StallForm, args: string[]): Promise<StalledRun> {
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
        binPath('answers-contract'),
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
  suite: async () => [],
  explore: async () => ['explore', '--seed', '3', '--budget', '60s'],
  replay: async () => ['replay', (await recordingFile()).file],
} as const;

export type StallCommand = keyof typeof COMMANDS;

/** The case of one command against one stall form: what every run must show. */
export function stalledCase(command: StallCommand, form: StallForm): [string, () => Promise<void>] {
  return [
    `${command}, the third create ${form === 'silent' ? 'answered with nothing' : form === 'headers' ? 'answered with headers, then nothing' : 'answered a byte every 250 ms'}: exit 2, "Left behind: nothing", within the deadline + 15 s`,
    async () => {
      const run = await stalledRun(form, [
        ...(await COMMANDS[command]()),
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
    },
  ];
}

/** Each command meets each stall form once: the Latin square every Node line runs. */
export const LATIN_SQUARE: ReadonlyArray<[StallCommand, StallForm]> = [
  ['suite', 'silent'],
  ['explore', 'headers'],
  ['replay', 'trickle'],
];
