import { createReadStream } from 'node:fs';
import { open, readFile, type FileHandle } from 'node:fs/promises';
import type { CutLine } from './cut-line.ts';
import { Replay, StateLineError } from '../../core/snapshot/state-lines.ts';
import type { Snapshot } from '../../core/snapshot/snapshot.ts';

/** What a `--state-file` held when the mock started. */
export type StateFileContents =
  | { readonly kind: 'missing' }
  /**
   * A state file: the state it describes, the bytes of its complete lines, and a last line cut
   * short (left out), if there was one.
   */
  | {
      readonly kind: 'lines';
      readonly snapshot: Snapshot;
      readonly validBytes: number;
      readonly cut?: CutLine | undefined;
    }
  /** A plain JSON snapshot (an export, a fixture, or a state file of an earlier version). */
  | { readonly kind: 'json'; readonly value: unknown };

/** A state file that cannot be read: the mock does not start, and the file is left as it is. */
export class StateFileError extends Error {}

const NEWLINE = 0x0a;

/** Whether the file starts with a state file's base line (not a plain JSON document). */
async function startsWithBaseLine(file: string): Promise<boolean> {
  const handle = await open(file, 'r');
  try {
    const head = Buffer.alloc(64);
    const { bytesRead } = await handle.read(head, 0, head.length, 0);
    return head.subarray(0, bytesRead).toString('utf8').startsWith('{"answers_mock_state":');
  } finally {
    await handle.close();
  }
}

/**
 * Reads a state file line by line (a file of a million objects is larger than the longest string
 * V8 can hold). A last line without its newline was being written when the process stopped: it
 * was never acknowledged, so it is left out, and the file is cut back to `validBytes` before
 * anything is appended.
 */
async function replayLines(
  file: string,
  chunks: AsyncIterable<Buffer> = createReadStream(file, { highWaterMark: 1 << 20 }),
): Promise<{ snapshot: Snapshot; validBytes: number; cut?: CutLine | undefined }> {
  const replay = new Replay();
  let carry: Buffer[] = [];
  let validBytes = 0;
  let total = 0;
  try {
    for await (const chunk of chunks) {
      total += chunk.length;
      let start = 0;
      for (let end = chunk.indexOf(NEWLINE); end !== -1; end = chunk.indexOf(NEWLINE, start)) {
        const piece = chunk.subarray(start, end);
        const line = carry.length ? Buffer.concat([...carry, piece]) : piece;
        carry = [];
        replay.apply(line.toString('utf8'));
        validBytes += line.length + 1;
        start = end + 1;
      }
      if (start < chunk.length) carry.push(chunk.subarray(start));
    }
  } catch (error) {
    if (error instanceof StateLineError) throw new StateFileError(`${file}: ${error.message}`);
    throw error;
  }
  const snapshot = replay.snapshot();
  if (!snapshot) throw new StateFileError(`${file}: no base line`);
  // @note Its start is kept (what it was is said at start, cut-line.ts), not the whole of it:
  // a cut line of a large object can be megabytes.
  const cut =
    total > validBytes
      ? {
          bytes: total - validBytes,
          start: Buffer.concat(carry, Math.min(512, total - validBytes)).toString('utf8'),
        }
      : undefined;
  return { snapshot, validBytes, cut };
}

/**
 * The state the first `bytes` of an open state file describe: what was durable when a write
 * failed, read from the file the mock writes even when its name now points elsewhere, or nowhere.
 * @param name The file's name, for errors.
 */
export async function replayOpenFile(
  name: string,
  handle: FileHandle,
  bytes: number,
): Promise<Snapshot> {
  if (bytes <= 0) throw new StateFileError(`${name}: no base line`);
  const chunks = handle.createReadStream({
    start: 0,
    end: bytes - 1,
    highWaterMark: 1 << 20,
    autoClose: false,
  }) as AsyncIterable<Buffer>;
  return (await replayLines(name, chunks)).snapshot;
}

/** Reads what a `--state-file` holds, in whichever of its two forms. */
export async function readStateFile(file: string): Promise<StateFileContents> {
  let lines: boolean;
  try {
    lines = await startsWithBaseLine(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { kind: 'missing' };
    throw new StateFileError(`cannot read state file ${file}: ${(error as Error).message}`);
  }
  if (lines) return { kind: 'lines', ...(await replayLines(file)) };
  const text = await readFile(file, 'utf8');
  try {
    // @note A UTF-8 BOM (some editors write one) is not part of the JSON.
    return { kind: 'json', value: JSON.parse(text.replace(/^\uFEFF/, '')) };
  } catch (error) {
    throw new StateFileError(`state file ${file} is not JSON: ${(error as Error).message}`);
  }
}
