/**
 * Startup: the median time from spawning a server to its first 200, in interleaved rounds (so a
 * busy moment of the machine hits every contender alike), against a bare `node:http` server
 * started the same way. Builds dist/ first: the built bin is what the package ships.
 */
import { execFileSync, spawn } from 'node:child_process';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { KEY, PRISM, QUICK, ROOT, TSX } from './settings.ts';
import { fmt, table } from './tables.ts';

interface Contender {
  name: string;
  command: string;
  args: string[];
  /** The path answered 200 with the dev key once the server is ready. */
  path: string;
  /** Runs before each start, outside the time measured. */
  before?: () => Promise<void>;
}

const BARE_SERVER = `import { createServer } from 'node:http';
const server = createServer((_, res) => { res.writeHead(200, { 'content-type': 'application/json' }); res.end('{}'); });
server.listen(0, '127.0.0.1', () => console.log('listening http://127.0.0.1:' + server.address().port));`;

const API = '/api/answers/v1/collections';
const mock = ['--port', '0', '--quiet'];

/** Spawns `contender`, and resolves with the ms from the spawn to its first 200; then stops it. */
async function firstAnswer(contender: Contender): Promise<number> {
  await contender.before?.();
  const began = performance.now();
  // @note Its own process group: `npm start` runs the mock in a child of its own, which a
  // signal to npm alone would leave running.
  const child = spawn(contender.command, contender.args, {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const lines: string[] = [];
  try {
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`no start in 60 s: ${lines.join('\n')}`)),
        60_000,
      );
      const onData = (chunk: Buffer) => {
        lines.push(chunk.toString());
        const match = /listening (?:on )?(http:\/\/[\d.:]+)/i.exec(chunk.toString());
        if (match) {
          clearTimeout(timer);
          resolve(match[1]!);
        }
      };
      child.stdout!.on('data', onData);
      child.stderr!.on('data', onData);
      void exited.then(() => reject(new Error(`exited: ${lines.join('\n')}`)));
    });
    const headers = { authorization: `Bearer ${KEY}` };
    while (
      !(await fetch(`${url}${contender.path}`, { headers }).then(
        (r) => r.ok,
        () => false,
      ))
    )
      await new Promise((resolve) => setTimeout(resolve, 2));
    return performance.now() - began;
  } finally {
    process.kill(-child.pid!, 'SIGTERM');
    const killer = setTimeout(() => process.kill(-child.pid!, 'SIGKILL'), 5_000);
    await exited;
    clearTimeout(killer);
  }
}

export async function startup(): Promise<string> {
  const runs = QUICK ? 3 : 5;
  execFileSync('npm', ['run', 'build', '--silent'], { cwd: ROOT, stdio: 'ignore' });
  const startManifest = join(ROOT, 'node_modules/.cache/answers-mock-start.json');
  const contenders: Contender[] = [
    {
      name: 'bare node:http server (baseline)',
      command: process.execPath,
      args: ['--input-type=module', '--eval', BARE_SERVER],
      path: '/',
    },
    {
      name: 'built bin: node dist/src/bin/answers-mock.js',
      command: process.execPath,
      args: ['dist/src/bin/answers-mock.js', ...mock],
      path: API,
    },
    { name: '`npm start`', command: 'npm', args: ['start', '--silent', '--', ...mock], path: API },
    {
      name: '`npm start` after a change to src/ (bundles first)',
      command: 'npm',
      args: ['start', '--silent', '--', ...mock],
      path: API,
      before: () => rm(startManifest, { force: true }),
    },
    {
      name: 'tsx src/bin/answers-mock.ts (`npm start` before issue 14, without npm)',
      command: process.execPath,
      args: ['--import', TSX, 'src/bin/answers-mock.ts', ...mock],
      path: API,
    },
    {
      name: 'Prism mock',
      command: process.execPath,
      args: [PRISM, 'mock', 'openapi.yaml', '--host', '127.0.0.1', '--port', '4098'],
      path: '/collections',
    },
  ];
  // One start of each first, unmeasured: it leaves `npm start`'s bundle fresh and the files in
  // the page cache.
  for (const contender of contenders) await firstAnswer(contender);
  const times = contenders.map(() => [] as number[]);
  for (let round = 0; round < runs; round++) {
    for (const [i, contender] of contenders.entries()) times[i]!.push(await firstAnswer(contender));
  }
  const median = (values: number[]) =>
    [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  const bare = median(times[0]!);
  return table([
    ['server', `median of ${runs} starts to first 200, ms`, 'vs bare'],
    ...contenders.map((contender, i) => {
      const ms = median(times[i]!);
      return [contender.name, fmt(ms), fmt(ms / bare, 2)];
    }),
  ]);
}
