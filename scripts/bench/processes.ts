/** The servers of the bench, each in its own process, started and stopped, pinned where possible. */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { ROOT } from './settings.ts';

export interface Started {
  url: string;
  lines: string[];
  child: ChildProcess;
  startedMs: number;
}

/** Where a process runs: a core to pin it to, and its working directory. */
export interface Placement {
  /** The core (`taskset -c`) when {@link PINNING} allows; ignored otherwise. */
  core?: number | undefined;
  cwd?: string | undefined;
  /** Reads the URL from a line of output once the process is ready; default `listening <url>`. */
  ready?: ((line: string) => string | undefined) | undefined;
}

/** util-linux's `taskset`, where the system has it (Debian's util-linux does). */
const TASKSET = 'taskset';

/**
 * Whether servers and the load generator can be pinned to separate cores: `taskset` present and
 * at least two cores. Servers go on core 0, the load generator on core 1.
 */
export const PINNING: { ok: boolean; why: string } = (() => {
  if (availableParallelism() < 2) return { ok: false, why: 'a single core' };
  const probe = spawnSync(TASKSET, ['-c', '0', 'true'], { stdio: 'ignore' });
  return probe.status === 0
    ? { ok: true, why: 'servers on core 0, load generator on core 1 (taskset)' }
    : { ok: false, why: 'no taskset' };
})();

/** The command line that runs node with `args`, pinned to `core` when that is possible. */
export function nodeCommand(args: string[], core?: number): [string, string[]] {
  return PINNING.ok && core !== undefined
    ? [TASKSET, ['-c', String(core), process.execPath, ...args]]
    : [process.execPath, args];
}

const listening = (line: string) => /listening (?:on )?(http:\/\/[\d.:]+)/i.exec(line)?.[1];

/** Starts a process and resolves when it prints `listening <url>` (or what `ready` reads). */
export function start(
  args: string[],
  timeoutMs = 600_000,
  placement: Placement = {},
): Promise<Started> {
  const began = performance.now();
  const [command, commandArgs] = nodeCommand(args, placement.core);
  const child = spawn(command, commandArgs, {
    cwd: placement.cwd ?? ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const ready = placement.ready ?? listening;
  const lines: string[] = [];
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`no start within ${timeoutMs} ms: ${lines.join('\n')}`)),
      timeoutMs,
    );
    const onLine = (chunk: Buffer) => {
      for (const line of chunk.toString().split('\n')) {
        if (line) lines.push(line);
        const url = ready(line);
        if (url) {
          clearTimeout(timer);
          resolve({ url, lines, child, startedMs: performance.now() - began });
        }
      }
    };
    child.stdout!.on('data', onLine);
    child.stderr!.on('data', onLine);
    child.once('exit', (code) => reject(new Error(`exited with ${code}: ${lines.join('\n')}`)));
  });
}

export function stop(process_: Started): Promise<void> {
  return new Promise((resolve) => {
    if (process_.child.exitCode !== null) return resolve();
    process_.child.removeAllListeners('exit');
    process_.child.once('exit', () => resolve());
    process_.child.kill('SIGTERM');
    setTimeout(() => process_.child.kill('SIGKILL'), 5_000).unref();
  });
}
