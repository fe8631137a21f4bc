import { stat, type FileHandle } from 'node:fs/promises';

/** Which file an open handle is: what its name must still lead to for writes to be kept. */
export interface FileIdentity {
  readonly dev: bigint;
  readonly ino: bigint;
}

/** The identity of the file `handle` has open. */
export async function identityOf(handle: FileHandle): Promise<FileIdentity> {
  const { dev, ino } = await handle.stat({ bigint: true });
  return { dev, ino };
}

/**
 * What `path` leads to now, compared with the file the journal writes: `same`, `gone` (deleted,
 * or its directory is), or `replaced` (another file renamed or copied in its place).
 */
export async function whatPathHolds(
  path: string,
  identity: FileIdentity,
): Promise<'same' | 'gone' | 'replaced'> {
  const now = await stat(path, { bigint: true }).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT' || error.code === 'ENOTDIR') return undefined;
    throw error;
  });
  if (!now) return 'gone';
  return now.dev === identity.dev && now.ino === identity.ino ? 'same' : 'replaced';
}
