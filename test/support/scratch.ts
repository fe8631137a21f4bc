/**
 * A scratch folder for the install tier's clones and apps: on /dev/shm (memory) where the machine
 * has one, else in the system temp dir. npm ci writes some 30,000 files a clone; on a tmpfs it
 * spends about a third less time (docs/performance.md), and nothing else changes for the commands.
 */
import { accessSync, constants } from 'node:fs';
import { mkdtemp, realpath } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const SHM = '/dev/shm';

function base(): string {
  try {
    accessSync(SHM, constants.W_OK);
    return SHM;
  } catch {
    return tmpdir();
  }
}

/** A new empty folder named `prefix…`, its real path. */
export async function scratchDir(prefix: string): Promise<string> {
  return realpath(await mkdtemp(join(base(), prefix)));
}
