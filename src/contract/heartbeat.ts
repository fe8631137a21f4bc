/**
 * A run's heartbeat on the machine it runs on, so that `sweep` never deletes the data of a run
 * still going on there: the suite, explore and replay each keep a file named by their run id in
 * the temp dir and touch it every few seconds until they end, then remove it.
 *
 * Why a file and not the target: what the run writes to the target (a collection to refresh)
 * would show in the lists its own checks and sequences walk and judge. A file is seen only on
 * this machine, by this user: a sweep from another machine cannot see it, and relies on
 * `--older-than`'s floor instead (see `SWEEP_FLOOR_MS` in sweep.ts).
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { rm, utimes } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';

/** How often a live run touches its file. */
const HEARTBEAT_REFRESH_MS = 5_000;
/**
 * How long a file untouched still counts as alive: six refreshes missed. A run whose event loop
 * is held longer (or a machine suspended) may be swept meanwhile: the floor still holds.
 */
export const HEARTBEAT_STALE_MS = 30_000;

/** The folder of this user's heartbeats (another user's files could only hold sweeps back). */
function heartbeatDir(): string {
  const uid = process.getuid?.();
  return join(tmpdir(), `answers-contract-runs${uid === undefined ? '' : `-${uid}`}`);
}

/** What a heartbeat file says of the run that writes it. */
export interface HeartbeatFile {
  pid: number;
  host: string;
}

/**
 * Whether a heartbeat is a live run's: touched within `HEARTBEAT_STALE_MS`, and, on this host,
 * by a process that still exists (a run killed with SIGKILL leaves its file; a pid in use again
 * within the staleness keeps the data a little longer, never less).
 */
export function isAlive(
  beat: { touchedMs: number; file: HeartbeatFile | undefined },
  now: number,
  processExists: (pid: number) => boolean,
  host = hostname(),
): boolean {
  if (now - beat.touchedMs > HEARTBEAT_STALE_MS) return false;
  if (beat.file === undefined || beat.file.host !== host) return true;
  return processExists(beat.file.pid);
}

function processExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // @note EPERM: the process exists and is another user's.
    return (error as NodeJS.ErrnoException).code !== 'ESRCH';
  }
}

function readBeat(text: string): HeartbeatFile | undefined {
  try {
    const value = JSON.parse(text) as Partial<HeartbeatFile>;
    return Number.isSafeInteger(value.pid) && typeof value.host === 'string'
      ? { pid: value.pid!, host: value.host }
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The ids of the runs alive on this machine (by this user), as their heartbeats say. The file of
 * a run that is over (killed, so it never removed it) is removed on the way.
 */
export function liveRunsHere(now = Date.now()): Set<string> {
  const dir = heartbeatDir();
  const live = new Set<string>();
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return live;
  }
  for (const name of names) {
    try {
      const path = join(dir, name);
      const beat = {
        touchedMs: statSync(path).mtimeMs,
        file: readBeat(readFileSync(path, 'utf8')),
      };
      if (isAlive(beat, now, processExists)) live.add(name);
      else rmSync(path, { force: true });
    } catch {
      // Gone meanwhile: that run ended.
    }
  }
  return live;
}

export interface Heartbeat {
  /** Stops touching the file and removes it: the run is over. */
  stop(): Promise<void>;
}

/**
 * Starts the heartbeat of run `runId`: its file is written before this returns (before the run
 * creates anything), then touched every `HEARTBEAT_REFRESH_MS`. Best effort: a temp dir that
 * cannot be written leaves the run without one (a sweep then relies on the floor alone).
 */
export function startHeartbeat(runId: string): Heartbeat {
  const dir = heartbeatDir();
  const path = join(dir, runId);
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const file: HeartbeatFile = { pid: process.pid, host: hostname() };
    // @note `wx`: never through a link or a file someone else put there.
    writeFileSync(path, `${JSON.stringify(file)}\n`, { flag: 'wx', mode: 0o600 });
  } catch {
    return { stop: async () => undefined };
  }
  const timer = setInterval(() => {
    const now = new Date();
    utimes(path, now, now).catch(() => undefined);
  }, HEARTBEAT_REFRESH_MS);
  // @note The heartbeat never keeps a process alive that has nothing else to do.
  timer.unref();
  return {
    stop: async () => {
      clearInterval(timer);
      await rm(path, { force: true });
    },
  };
}
