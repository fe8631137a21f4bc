/**
 * What the security tests share: the API prefix, a full key, the repository root, and servers on
 * free loopback ports that are closed (and spies restored) after each test.
 */
import { fileURLToPath } from 'node:url';
import { afterEach, vi } from 'vitest';
import { createMock, type AnswersMock } from '../../../src/index.ts';
import { startServer, type RunningServer, type StartOptions } from '../../../src/node/server.ts';

export const API = '/api/answers/v1';
export const FULL = 'answers_test_full_acme';
export const ROOT = fileURLToPath(new URL('../../..', import.meta.url));

/**
 * Registers, in the calling test file, an `afterEach` that restores every spy and closes every
 * server started; returns how to start one (quiet, on a free port) and the list to add others to.
 */
export function serversClosedAfterEach() {
  const started: RunningServer[] = [];
  afterEach(async () => {
    vi.restoreAllMocks();
    await Promise.all(started.splice(0).map((server) => server.close()));
  });
  async function start(options: Partial<StartOptions> & { mock?: AnswersMock } = {}) {
    const server = await startServer({
      mock: options.mock ?? (await createMock()),
      port: 0,
      quiet: true,
      ...options,
    });
    started.push(server);
    return server;
  }
  return { start, started };
}
