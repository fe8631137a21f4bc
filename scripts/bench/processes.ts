/** The servers of the bench, each in its own process, started and stopped. */
import { spawn, type ChildProcess } from 'node:child_process';
import { ROOT } from './settings.ts';

export interface Started {
  url: string;
  lines: string[];
  child: ChildProcess;
  startedMs: number;
}

/** Starts a process and resolves when it prints `listening <url>` (or Prism's equivalent). */
export function start(args: string[], timeoutMs = 600_000): Promise<Started> {
  const began = performance.now();
  const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  const lines: string[] = [];
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`no start within ${timeoutMs} ms: ${lines.join('\n')}`)),
      timeoutMs,
    );
    const onLine = (chunk: Buffer) => {
      for (const line of chunk.toString().split('\n')) {
        if (line) lines.push(line);
        const match = /listening (?:on )?(http:\/\/[\d.:]+)/i.exec(line);
        if (match) {
          clearTimeout(timer);
          resolve({ url: match[1]!, lines, child, startedMs: performance.now() - began });
        }
      }
    };
    child.stdout!.on('data', onLine);
    child.stderr!.on('data', onLine);
    child.once('exit', (code) => reject(new Error(`exited with ${code}: ${lines.join('\n')}`)));
  });
}

export function stop(process_: Started): Promise<void> {
  return new Promise((resolve) => {
    if (process_.child.exitCode !== null) return resolve();
    process_.child.removeAllListeners('exit');
    process_.child.once('exit', () => resolve());
    process_.child.kill('SIGTERM');
    setTimeout(() => process_.child.kill('SIGKILL'), 5_000).unref();
  });
}
