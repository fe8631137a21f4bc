/**
 * A destructive run (the suite, explore or replay) against the mock 50 ms away, interrupted by a signal
 * when the target has answered a chosen number of creates, or (explore) ended by its `--budget`:
 * what it printed, how it exited, and which of the run's collections the mock still holds.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseRunName } from '../../src/contract/target-api/run-name.ts';
import { createMock } from '../../src/index.ts';
import { startServer } from '../../src/node/server.ts';
import { KEYS } from './keys.ts';
import { startProxy } from './proxy.ts';
import { recordFlows } from './recorded-flows.ts';
import { contractBin } from './bins.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const PREFIX = '/api/answers/v1';
const CREATE = /\/collections(\/[^/]+\/objects)?(\?.*)?$/;

export interface InterruptedRun {
  code: number | null;
  stdout: string;
  stderr: string;
  /** The run's collections the mock still holds after the run exited, by id. */
  left: string[];
}

export async function interruptedRun(
  options:
    | {
        command: 'suite' | 'explore' | 'replay';
        signal: 'SIGINT' | 'SIGTERM';
        /** The signal is sent once the target has answered this many creates. */
        afterCreates: number;
      }
    | {
        command: 'explore';
        /** No signal: explore's own `--budget` ends the run (`2s`). */
        budget: string;
        seed: number;
      },
): Promise<InterruptedRun> {
  const mock = await createMock();
  const server = await startServer({ mock, port: 0, quiet: true });
  let creates = 0;
  let interrupt = () => {};
  const proxy = await startProxy(server.url, {
    delayMs: 50,
    sent: (request, status) => {
      if (request.method === 'POST' && status === 201 && CREATE.test(request.url)) {
        creates += 1;
        if ('afterCreates' in options && creates === options.afterCreates) interrupt();
      }
    },
  });
  const folder = await mkdtemp(join(tmpdir(), 'interrupted-replay-'));
  try {
    const recording = join(folder, 'flows.json');
    if (options.command === 'replay')
      await writeFile(recording, JSON.stringify(await recordFlows(30)));
    const args = [
      ...(options.command === 'replay' ? ['replay', recording] : []),
      ...(options.command === 'explore'
        ? 'budget' in options
          ? ['explore', '--seed', String(options.seed), '--budget', options.budget]
          : ['explore', '--seed', '3', '--budget', '60s']
        : []),
      '--base-url',
      `${proxy.url}${PREFIX}`,
      '--api-key',
      KEYS.full,
      '--other-account-key',
      KEYS.globex,
      '--destructive',
    ];
    const child = spawn(process.execPath, contractBin(...args), {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    if ('signal' in options) interrupt = () => child.kill(options.signal);
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    const left = mock.controls
      .export()
      .collections.filter((collection) => parseRunName(collection.name) !== undefined)
      .map((collection) => collection.id);
    return { code, stdout, stderr, left };
  } finally {
    await proxy.close();
    await server.close();
    await rm(folder, { recursive: true, force: true });
  }
}
