import type { FileHandle } from 'node:fs/promises';

/**
 * Writes all of `bytes` at the file's end, or throws. A write(2) may write less than it was given
 * without an error (a disk filling up writes what fits; the next write fails with ENOSPC): what
 * it left is written again, so a line is never counted as written when only its start is.
 */
export async function writeWhole(handle: FileHandle, bytes: Uint8Array): Promise<void> {
  for (let at = 0; at < bytes.length;) {
    const { bytesWritten } = await handle.write(bytes, at, bytes.length - at);
    // @note A write that writes nothing and says no error would otherwise be retried forever.
    if (bytesWritten <= 0)
      throw Object.assign(new Error('EIO: the file took none of a write'), { code: 'EIO' });
    at += bytesWritten;
  }
}
