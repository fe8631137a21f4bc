/**
 * The mock under soak in a child process (server.ts, --expose-gc): started, asked for its memory
 * after full garbage collections, and stopped.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { ROOT, SERVER, TSX } from './settings.ts';

export interface Child {
  url: string;
  process: ChildProcess;
  /** Lines the server wrote on stderr (a 500 logs its cause there). */
  stderr: string[];
  memory(): Promise<NodeJS.MemoryUsage>;
  stop(): Promise<void>;
}

export function startChild(): Promise<Child> {
  const child = spawn(process.execPath, ['--expose-gc', '--import', TSX, SERVER], {
    cwd: ROOT,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const stderr: string[] = [];
  const waiting: Array<(line: string) => void> = [];
  createInterface({ input: child.stderr! }).on('line', (line) => stderr.push(line));
  const stdout = createInterface({ input: child.stdout! });
  stdout.on('line', (line) => waiting.shift()?.(line));
  const nextLine = (what: string, timeoutMs: number) =>
    new Promise<string>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`no ${what} within ${timeoutMs} ms`)),
        timeoutMs,
      );
      waiting.push((line) => {
        clearTimeout(timer);
        resolve(line);
      });
      child.once('exit', (code) =>
        reject(new Error(`the server exited (${code}): ${stderr.join('\n')}`)),
      );
    });

  return nextLine('listening line', 60_000).then((line) => {
    const match = /^listening (http:\/\/127\.0\.0\.1:\d+)$/.exec(line);
    if (!match) throw new Error(`unexpected first line from the server: ${line}`);
    return {
      url: match[1]!,
      process: child,
      stderr,
      async memory() {
        const answer = nextLine('memory line', 30_000);
        child.stdin!.write('memory\n');
        const reply = await answer;
        if (!reply.startsWith('memory ')) throw new Error(`unexpected line: ${reply}`);
        return JSON.parse(reply.slice('memory '.length)) as NodeJS.MemoryUsage;
      },
      stop: () =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null || child.signalCode !== null) return resolve();
          child.removeAllListeners('exit');
          child.once('exit', () => resolve());
          child.kill('SIGTERM');
          setTimeout(() => child.kill('SIGKILL'), 5_000).unref();
        }),
    };
  });
}
