/** The bench's side of the load generator process (load-generator-run.ts): start it, run loads, stop it. */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { LoadResult, LoadRun } from './load-generator-run.ts';
import { nodeCommand } from './processes.ts';
import { ROOT, TSX } from './settings.ts';

export type { LoadResult };

/** The generator, pinned to core 1 when possible; runs one load at a time. */
export interface LoadDriver {
  run(options: LoadRun): Promise<LoadResult>;
  stop(): void;
}

export function startLoadGenerator(): LoadDriver {
  const [command, args] = nodeCommand(
    ['--import', TSX, fileURLToPath(new URL('load-generator-run.ts', import.meta.url))],
    1,
  );
  const child = spawn(command, args, { cwd: ROOT, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  let queue: Promise<unknown> = Promise.resolve();
  return {
    run(options) {
      const result = queue.then(
        () =>
          new Promise<LoadResult>((resolve, reject) => {
            const onExit = (code: number | null) =>
              reject(new Error(`load generator exited with ${code}`));
            child.once('exit', onExit);
            child.once('message', (message) => {
              child.off('exit', onExit);
              resolve(message as LoadResult);
            });
            child.send(options);
          }),
      );
      queue = result.catch(() => undefined);
      return result;
    },
    stop() {
      child.disconnect();
      child.kill('SIGTERM');
    },
  };
}
