/**
 * A state file compacted: the state's records taken at one instant without copying them, then
 * written out a megabyte at a time, the event loop running between.
 */
import type { FileHandle } from 'node:fs/promises';
import type { MockState } from '../../core/store/mock-state.ts';
import type { CollectionRecord, ObjectRecord } from '../../core/store/records.ts';
import { baseLine, changeLine } from '../../core/snapshot/state-lines.ts';
import { writeWhole } from './whole-write.ts';

/** The state as it was at one instant: records by reference, written out a batch at a time. */
export interface Capture {
  readonly base: string;
  readonly collections: readonly CollectionRecord[];
  readonly objects: ReadonlyArray<readonly ObjectRecord[]>;
}

/**
 * Takes the state's records without copying them (records are replaced, not changed, on update;
 * a change made after the capture is in a line written after it, and lines are idempotent).
 */
export function capture(state: MockState): Capture {
  const { store } = state;
  const collections = [...store.allCollections()];
  return {
    base: baseLine({
      accounts: store.accounts,
      api_keys: [...store.apiKeys],
      id_sequences: state.ids.export(),
    }),
    collections,
    objects: collections.map((collection) => store.objectsOf(collection.id).slice()),
  };
}

/** A capture is written in pieces of at most this many bytes or records (I/O runs between). */
const WRITE_BYTES = 1 << 20;
const WRITE_RECORDS = 512;

/** Writes a capture as a compacted state file, a megabyte at a time (the event loop runs between). */
export async function writeCapture(handle: FileHandle, state: Capture): Promise<number> {
  let bytes = 0;
  let text = state.base;
  const flush = async () => {
    const piece = Buffer.from(text);
    await writeWhole(handle, piece);
    bytes += piece.length;
    text = '';
  };
  let records = 0;
  for (let i = 0; i < state.collections.length; i++) {
    text += changeLine({ type: 'collection', record: state.collections[i]! });
    for (const record of state.objects[i]!) {
      text += changeLine({ type: 'object', record });
      if (++records % WRITE_RECORDS === 0 || text.length >= WRITE_BYTES) await flush();
    }
  }
  await flush();
  return bytes;
}
