/**
 * Issue 46: on Node 20, a request's deadline was `AbortSignal.any([AbortSignal.timeout(…), stop])`,
 * which fetch holds only weakly: a garbage collection during the wait took it, and a target that
 * accepted the connection and then went silent held the request, and the run, until it was
 * killed. Here the client waits on such a target while the collector runs every 50 ms: the
 * request must end at its own deadline, and an interruption must still end one in flight.
 */
import { createServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterEach, describe, expect, it } from 'vitest';
import { ContractClient } from '../../src/contract/client.ts';
import { Interrupted, TargetStalled } from '../../src/contract/failure.ts';

// @note `gc` for this worker without restarting it under --expose-gc: a full collection on call.
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/** How the stalling target behaves once it has accepted a connection. */
type Form = 'silent' | 'headers' | 'trickle';

/** Each test's target, on a port of its own (no connection of another test is reused). */
let target: { base: string; close(): Promise<void> } | undefined;
/** Each test's interruption: aborted after it, so that nothing outlives the test. */
let stop = new AbortController();

async function stallingTarget(form: Form): Promise<string> {
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    if (form === 'silent') return;
    socket.once('data', () => {
      socket.write(
        'HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 1000\r\n\r\n',
      );
      if (form === 'trickle') {
        const drip = setInterval(() => socket.write('{'), 100);
        socket.on('close', () => clearInterval(drip));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  target = {
    base,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
  return base;
}

afterEach(async () => {
  stop.abort('the test');
  stop = new AbortController();
  await target?.close();
  target = undefined;
});

/** How `request` ends while the collector runs every 50 ms, or `'still waiting'` after `limitMs`. */
async function ending(
  client: ContractClient,
  limitMs: number,
): Promise<{ error: unknown; ms: number } | 'still waiting'> {
  const started = performance.now();
  const collecting = setInterval(gc, 50);
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      client.request('GET', '/collections').then(
        () => ({ error: undefined, ms: performance.now() - started }),
        (error: unknown) => ({ error, ms: performance.now() - started }),
      ),
      new Promise<'still waiting'>((resolve) => {
        timer = setTimeout(() => resolve('still waiting'), limitMs);
      }),
    ]);
  } finally {
    clearInterval(collecting);
    clearTimeout(timer);
  }
}

describe('a request ends at its deadline whatever the garbage collector does', () => {
  for (const each of ['silent', 'headers', 'trickle'] as const)
    it(`a target that ${each === 'silent' ? 'accepts and sends nothing' : each === 'headers' ? 'sends its headers, then nothing' : 'trickles its body a byte at a time'}: TargetStalled at 400 ms`, async () => {
      const client = new ContractClient(await stallingTarget(each), 'k', false, undefined, 400);
      client.stopOn(stop.signal);
      const ended = await ending(client, 3_000);
      expect(ended).not.toBe('still waiting');
      const { error, ms } = ended as { error: unknown; ms: number };
      expect(error).toBeInstanceOf(TargetStalled);
      expect((error as Error).message).toContain('GET /collections got no whole answer within');
      expect(ms).toBeLessThan(2_000);
      // The run ends there: the client sends nothing more until the clean-up begins.
      expect(client.stopped).toBe(true);
      await expect(client.request('GET', '/collections')).rejects.toBeInstanceOf(TargetStalled);
    });

  it('an interruption still ends a request in flight, after collections', async () => {
    const client = new ContractClient(
      await stallingTarget('silent'),
      'k',
      false,
      undefined,
      60_000,
    );
    client.stopOn(stop.signal);
    setTimeout(() => stop.abort('SIGINT'), 400);
    const ended = await ending(client, 3_000);
    expect(ended).not.toBe('still waiting');
    expect((ended as { error: unknown }).error).toBeInstanceOf(Interrupted);
  });

  it("the clean-up's deadline still ends a request in flight, after collections", async () => {
    const client = new ContractClient(
      await stallingTarget('silent'),
      'k',
      false,
      undefined,
      60_000,
    );
    client.cleaningUp(400);
    const ended = await ending(client, 3_000);
    expect(ended).not.toBe('still waiting');
    const { error } = ended as { error: Error & { cause?: unknown } };
    expect(String(error), String(error.cause)).toContain("the clean-up's deadline");
  });
});
