/**
 * What tells one run of a process from another, for the state file's lock: a pid alone does not
 * (a mock in a container is PID 1 every time it starts), nor does a host name (a container made
 * afresh gets a new one).
 */
import { readFileSync, readlinkSync } from 'node:fs';
import { hostname } from 'node:os';

/** A process as its lock names it. Fields from /proc are missing where there is none. */
export interface ProcessInstance {
  readonly pid: number;
  readonly host: string;
  /** The kernel's boot id: another value is another boot, or another machine. */
  readonly boot?: string | undefined;
  /** The PID namespace (`pid:[4026531836]`): pids of another one (a container) cannot be looked up. */
  readonly pidNamespace?: string | undefined;
  /** When the process started, in clock ticks since boot: another value is another process. */
  readonly started?: string | undefined;
}

const quietly = <T>(read: () => T): T | undefined => {
  try {
    return read();
  } catch {
    return undefined; // no /proc (macOS, Windows), or not allowed to look
  }
};

/**
 * The fields of /proc/<pid>/stat after the command name; undefined when there is no such process.
 * @note The command name is in parentheses and may itself hold spaces and parentheses.
 */
function statFields(pid: number): string[] | undefined {
  const stat = quietly(() => readFileSync(`/proc/${pid}/stat`, 'utf8'));
  return stat?.slice(stat.lastIndexOf(')') + 2).split(' ');
}

/** Process `pid`'s start time in ticks since boot (field 22 of its stat), where /proc says. */
export function startTimeOf(pid: number): string | undefined {
  return statFields(pid)?.[19];
}

/** This process, as its lock names it. */
export function thisInstance(): ProcessInstance {
  return {
    pid: process.pid,
    host: hostname(),
    boot: quietly(() => readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim()),
    pidNamespace: quietly(() => readlinkSync('/proc/self/ns/pid')),
    started: startTimeOf(process.pid),
  };
}

/**
 * Whether process `pid` of this PID namespace still runs. `kill(pid, 0)` also succeeds for a
 * zombie (a process that ended and that its parent has not reaped yet, common in containers
 * after a `kill -9`), so where there is /proc its state is read too: `Z` (zombie) or `X` (dead)
 * is gone.
 */
export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
  const state = statFields(pid)?.[0];
  return state !== 'Z' && state !== 'X';
}

/** The text of a lock naming `instance`: one JSON line. */
export function lockText(instance: ProcessInstance): string {
  return `${JSON.stringify(instance)}\n`;
}

/**
 * The instance a lock names: a JSON line, or `<pid> <host>` as earlier versions wrote it;
 * undefined when it is neither (a lock being written, or damaged).
 */
export function parseLock(text: string): ProcessInstance | undefined {
  const trimmed = text.trim();
  if (trimmed.startsWith('{')) {
    const value = quietly(() => JSON.parse(trimmed) as Partial<Record<string, unknown>>);
    if (!value || !Number.isInteger(value['pid']) || typeof value['host'] !== 'string')
      return undefined;
    const text = (key: string) => (typeof value[key] === 'string' ? value[key] : undefined);
    return {
      pid: value['pid'] as number,
      host: value['host'],
      boot: text('boot'),
      pidNamespace: text('pidNamespace'),
      started: text('started'),
    };
  }
  const [pid, host] = trimmed.split(' ');
  return Number.isInteger(Number(pid)) && Number(pid) > 0 && host
    ? { pid: Number(pid), host }
    : undefined;
}
