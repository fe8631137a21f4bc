/**
 * Running the tools of the package test: every child gets a clean environment, runs to its end
 * (bounded), and never rejects; `expectOk` turns a failed run into an error with its output.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const BIN = join(ROOT, 'node_modules', '.bin');

export interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * The environment of every child: without the variables of an enclosing `npm test` or vitest
 * (npm_config_local_prefix would point a nested npm at this repo), without colours, never
 * downloading browsers.
 */
export function childEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (/^(npm_|INIT_CWD$|VITEST|TINYPOOL|FORCE_COLOR$|PORT$|HOST$)/i.test(name)) {
      if (!/^npm_config_(cache|registry)$/i.test(name)) continue;
    }
    env[name] = value;
  }
  return {
    ...env,
    PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1',
    SCARF_ANALYTICS: 'false',
    NO_COLOR: '1',
    CI: 'true',
  };
}

/** Runs a command to its end (bounded by `timeout`); never rejects. */
export function run(command: string, args: string[], cwd: string, timeout = 180_000): Promise<Ran> {
  return new Promise((resolve) => {
    execFile(
      command,
      args,
      { cwd, env: childEnv(), timeout, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const code = error ? ((error as { code?: unknown }).code ?? null) : 0;
        resolve({ code: typeof code === 'number' ? code : null, stdout, stderr });
      },
    );
  });
}

export function expectOk(what: string, ran: Ran): void {
  if (ran.code !== 0) {
    throw new Error(`${what} exited with ${ran.code}\n${ran.stdout.slice(-4000)}\n${ran.stderr}`);
  }
}
