/**
 * The mock under soak, in its own process (run with --expose-gc). It serves the default seed on
 * 127.0.0.1 (a free port), prints `listening <url>`, and answers each `memory` line on stdin
 * with one line `memory {...}`: `process.memoryUsage()` taken after full garbage collections.
 * Stops on SIGTERM or when stdin closes.
 */
import { createInterface } from 'node:readline';
import { createMock } from '../../src/index.ts';
import { startServer } from '../../src/node/server.ts';

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) {
  console.error('run with --expose-gc');
  process.exit(2);
}

const mock = await createMock();
const server = await startServer({ mock, host: '127.0.0.1', port: 0, quiet: true });
console.log(`listening ${server.url}`);

const stop = () => void server.close().finally(() => process.exit(0));
process.once('SIGTERM', stop);

const lines = createInterface({ input: process.stdin });
lines.on('line', (line) => {
  if (line.trim() !== 'memory') return;
  // @note Several passes: a first collection can leave garbage that only a second one frees.
  for (let i = 0; i < 3; i++) gc();
  const { rss, heapUsed, heapTotal, external, arrayBuffers } = process.memoryUsage();
  console.log(`memory ${JSON.stringify({ rss, heapUsed, heapTotal, external, arrayBuffers })}`);
});
lines.once('close', stop);
