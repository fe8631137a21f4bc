/**
 * A disk that fills up, for the state file's tests: real files, opened through the journal's
 * `openFile` seam, whose writes take only the bytes there is room for (a short write, as
 * write(2) makes when a disk fills) and then fail with ENOSPC, as a full disk does.
 */
import { open, type FileHandle } from 'node:fs/promises';

export interface FillingDisk {
  /** Opens a real file whose writes the disk's room limits. */
  open(path: string, flags: string | number, mode?: number): Promise<FileHandle>;
  /** Bytes the disk still takes; Infinity until set. */
  room: number;
  /** The next write takes only its first `n` bytes and says so (the rest then fits). */
  shortOnce(n: number): void;
}

const noSpace = () =>
  Object.assign(new Error('ENOSPC: no space left on device, write'), {
    code: 'ENOSPC',
    errno: -28,
    syscall: 'write',
  });

export function fillingDisk(): FillingDisk {
  let short: number | undefined;
  const disk: FillingDisk = {
    room: Infinity,
    shortOnce(n) {
      short = n;
    },
    async open(path, flags, mode) {
      const handle = await open(path, flags, mode);
      const write = async (data: Uint8Array | string, offset = 0, length?: number) => {
        const bytes = typeof data === 'string' ? Buffer.from(data) : data;
        const wanted = length ?? bytes.length - offset;
        if (disk.room <= 0) throw noSpace();
        const taken = Math.min(wanted, disk.room, short ?? Infinity);
        short = undefined;
        const written = await handle.write(bytes, offset, taken);
        disk.room -= written.bytesWritten;
        return written;
      };
      return new Proxy(handle, {
        get(target, key) {
          if (key === 'write') return write;
          const value: unknown = Reflect.get(target, key, target);
          return typeof value === 'function' ? (value as () => unknown).bind(target) : value;
        },
      });
    },
  };
  return disk;
}
