/**
 * The server's own CPU per request in-process (server-cpu-run.ts): the mock's Node server and a
 * bare `node:http` server answering the same bytes, each in its own process pinned to one core,
 * interleaved, for the three request shapes of the throughput targets. What it leaves out is
 * what both pay alike over loopback: the system calls and the kernel's TCP.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { bundled } from './bundled.ts';
import { nodeCommand } from './processes.ts';
import { QUICK, ROOT } from './settings.ts';
import { fmt, table } from './tables.ts';

const SHAPES = [
  ['one', 'get one collection'],
  ['page', 'a page of 10 collections'],
  ['refused', '401 (no key)'],
] as const;

function measure(script: string, server: 'mock' | 'bare', shape: string) {
  const [command, args] = nodeCommand([script, server, shape], 0);
  const result = spawnSync(command, args, { cwd: ROOT, encoding: 'utf8', timeout: 120_000 });
  if (result.status !== 0) throw new Error(`server-cpu-run failed: ${result.stderr}`);
  return JSON.parse(result.stdout.trim().split('\n').at(-1)!) as { min: number; median: number };
}

export async function serverCpu(): Promise<string> {
  const script = await bundled(fileURLToPath(new URL('server-cpu-run.ts', import.meta.url)));
  const rounds = QUICK ? 1 : 3;
  const rows = [['request', 'mock µs/req', 'bare µs/req', 'mock ÷ bare']];
  for (const [shape, title] of SHAPES) {
    const mock: number[] = [];
    const bare: number[] = [];
    for (let round = 0; round < rounds; round++) {
      mock.push(measure(script, 'mock', shape).min);
      bare.push(measure(script, 'bare', shape).min);
    }
    const best = (values: number[]) => Math.min(...values);
    rows.push([title, fmt(best(mock), 2), fmt(best(bare), 2), fmt(best(mock) / best(bare), 2)]);
  }
  return `${table(rows)}\n\nEach figure: the lowest over ${rounds} interleaved processes of the lowest of 7 rounds of 30,000 requests (after 20,000 of warm-up), fed one at a time through an in-memory connection to the real server (\`createServer\`), pinned to one core; the bare server answers the mock's own bytes. No sockets: the loopback's system calls, which both servers pay alike, are left out, so this judges the server's own code with little noise.`;
}
