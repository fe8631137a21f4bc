/**
 * A lock among the processes of a test run: a folder made atomically, holding its owner's pid.
 * A lock whose process is gone (a killed run) is taken over.
 */
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Runs `body` while this process holds the lock `folder`, waiting for its owner first. */
export async function withDirLock<T>(folder: string, body: () => Promise<T>): Promise<T> {
  for (;;) {
    try {
      await mkdir(folder);
      await writeFile(join(folder, 'pid'), String(process.pid));
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const owner = Number(await readFile(join(folder, 'pid'), 'utf8').catch(() => 'NaN'));
      // No pid yet: its owner is between its mkdir and its write; wait for either.
      if (Number.isInteger(owner) && !alive(owner))
        await rm(folder, { recursive: true, force: true });
      else await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  try {
    return await body();
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}
