import { spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';

const OPENAPI = fileURLToPath(new URL('../../openapi.yaml', import.meta.url));

/** `--via-prism` without `@stoplight/prism-cli` installed: exit status 2, like a usage error. */
export class PrismMissingError extends Error {
  override name = 'PrismMissingError';
}

/**
 * Prism's CLI script. `@stoplight/prism-cli` is an optional peer dependency of the package (a
 * large install that only `--via-prism` needs), so it may be missing.
 */
function prismCli(): string {
  try {
    return createRequire(import.meta.url).resolve('@stoplight/prism-cli/dist/index.js');
  } catch {
    throw new PrismMissingError(
      '--via-prism needs @stoplight/prism-cli (an optional peer dependency): npm install --save-dev @stoplight/prism-cli@5.14.2 (5.16 and later need Node 24.18)',
    );
  }
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/**
 * Starts `prism proxy openapi.yaml <upstream> --errors` on a free loopback port, so every response
 * that breaks `openapi.yaml` fails too (Prism's own validator, besides the suite's). Resolves once
 * Prism listens.
 */
export async function startPrismProxy(
  upstream: string,
): Promise<{ url: string; stop(): Promise<void> }> {
  // @note The port is free when asked for, not necessarily when Prism binds it: on a busy
  // machine another process can take it in between, and Prism exits. A new port, three times.
  for (let attempt = 1; ; attempt++) {
    try {
      return await startOnce(upstream, await freePort());
    } catch (error) {
      if (!(error instanceof PrismExited) || attempt === 3) throw error;
    }
  }
}

/** Prism ended before it listened (its port taken, say): worth another port. */
class PrismExited extends Error {
  override name = 'PrismExited';
}

async function startOnce(
  upstream: string,
  port: number,
): Promise<{ url: string; stop(): Promise<void> }> {
  const bin = prismCli();
  const child: ChildProcess = spawn(
    process.execPath,
    // @note --validate-request false: the suite sends invalid requests on purpose (bad limits,
    // bad bodies) and must see the target's answer, not Prism's 422. Responses are still validated.
    [
      bin,
      'proxy',
      OPENAPI,
      upstream,
      '--errors',
      '--validate-request',
      'false',
      '--host',
      '127.0.0.1',
      '--port',
      String(port),
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGTERM');
      reject(new Error(`Prism did not start within 60 s:\n${output}`));
    }, 60_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Prism is listening')) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new PrismExited(`Prism exited with ${code}:\n${output}`));
    });
  });
  return {
    url: `http://127.0.0.1:${port}`,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
