/**
 * Running the commands of the documents as a user types them: each through bash, in a folder of a
 * scratch layout, with a clean environment; a server in the background until it is stopped as a
 * user would stop it (Ctrl-C). Every command run is recorded, so a test can prove that each line
 * of a shell block ran or is marked as not run.
 */
import { execFile, spawn } from 'node:child_process';
import { childEnv } from '../package/commands.ts';

export interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The commands run so far, as `id\ncommand`. */
export const executed = new Set<string>();

/** A clean environment (no npm_ or vitest variables), the npm cache preferred, and `extra`. */
function environment(extra: Record<string, string>): NodeJS.ProcessEnv {
  return {
    ...childEnv(),
    npm_config_prefer_offline: 'true',
    npm_config_audit: 'false',
    npm_config_fund: 'false',
    npm_config_update_notifier: 'false',
    ...extra,
  };
}

/**
 * Runs `commands` of block `id` as one bash script (so a `cd` carries to the next line, as in a
 * terminal), stopping at the first that fails.
 */
export function runCommands(
  id: string,
  commands: string[],
  cwd: string,
  env: Record<string, string> = {},
  timeout = 300_000,
): Promise<Ran> {
  for (const command of commands) executed.add(`${id}\n${command}`);
  return runLines(commands, cwd, env, timeout);
}

/**
 * Records `command` of block `id` as run where one run stands for the same line of several
 * blocks (test/new-user/packed-kit.ts: the README's `npm ci && npm pack`, run once a test run).
 */
export function recordRan(id: string, command: string): void {
  executed.add(`${id}\n${command}`);
}

/** Runs `commands` as runCommands does, without recording them as any block's lines. */
export function runLines(
  commands: string[],
  cwd: string,
  env: Record<string, string> = {},
  timeout = 300_000,
): Promise<Ran> {
  return new Promise((resolve) => {
    execFile(
      'bash',
      ['-e', '-c', commands.join('\n')],
      { cwd, env: environment(env), timeout, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const code = error ? ((error as { code?: unknown }).code ?? null) : 0;
        resolve({ code: typeof code === 'number' ? code : null, stdout, stderr });
      },
    );
  });
}

export function expectRan(what: string, ran: Ran): void {
  if (ran.code !== 0)
    throw new Error(`${what} exited with ${ran.code}\n${ran.stdout.slice(-4000)}\n${ran.stderr}`);
}

export interface Background {
  output(): string;
  /** Sends Ctrl-C (SIGINT to the process group) and resolves with the exit code. */
  stop(): Promise<number | null>;
}

/**
 * Starts `command` of block `id` in the background, as in a second terminal, and resolves once
 * its output matches `ready`.
 */
export async function startCommand(
  id: string,
  command: string,
  cwd: string,
  ready: RegExp,
  env: Record<string, string> = {},
): Promise<Background> {
  executed.add(`${id}\n${command}`);
  const child = spawn('bash', ['-c', command], {
    cwd,
    env: environment(env),
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = new Promise<number | null>((resolve) => child.once('close', resolve));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      try {
        process.kill(-child.pid!, 'SIGINT');
      } catch {
        // already gone
      }
    }
    const timer = setTimeout(() => {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // already gone
      }
    }, 15_000);
    const code = await exited;
    clearTimeout(timer);
    return code;
  };
  // Colour codes removed: a tool may print them even without a terminal.
  const plain = () => output.replace(/\x1b\[[0-9;]*m/g, ''); // eslint-disable-line no-control-regex
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      void stop();
      reject(new Error(`${command}: not ready in 120 s\n${plain()}`));
    }, 120_000);
    const look = (chunk: Buffer) => {
      output += chunk.toString();
      if (ready.test(plain())) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout.on('data', look);
    child.stderr.on('data', look);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`${command}: exited with ${code} before it was ready\n${plain()}`));
    });
  });
  return { output: plain, stop };
}
