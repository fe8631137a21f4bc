/**
 * `answers-mock --record` on a disk that fills up (disk.ts: real files whose writes go short,
 * then fail with ENOSPC): an exchange whose line cannot be written is answered 507, so every
 * exchange a client saw succeed is in the recording, and the file stays whole lines.
 */
import { mkdtemp, open, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { assemble } from '../../../src/assemble.ts';
import { readReplayFile } from '../../../src/contract/replay/read-file.ts';
import { DEFAULT_DESCRIPTION } from '../../../src/contract/target-api/description.ts';
import {
  startSessionRecording,
  type SessionRecording,
} from '../../../src/node/session-recording.ts';
import { API, FULL, serversClosedAfterEach } from '../security/servers.ts';
import { fillingDisk } from './disk.ts';

const { start } = serversClosedAfterEach();
let dir: string;
const recordings: SessionRecording[] = [];
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'answers-record-full-disk-'));
});
afterEach(async () => {
  await Promise.all(recordings.splice(0).map((recording) => recording.close()));
  await rm(dir, { recursive: true, force: true });
});

const headers = { authorization: `Bearer ${FULL}`, 'content-type': 'application/json' };
const reading = { description: DEFAULT_DESCRIPTION, roleOf: () => 'unknown' as const };

describe('a --record file on a full disk', () => {
  it('answers 507 for each exchange it cannot write, so every 201 answered is in the recording', async () => {
    const file = join(dir, 'session.jsonl');
    const disk = fillingDisk();
    const errors: string[] = [];
    const { mock, state } = await assemble();
    const recording = await startSessionRecording(
      file,
      mock,
      () => state.store.apiKeys,
      () => [state.store, state.store.version],
      { openFile: disk.open, onError: (message) => errors.push(message) },
    );
    recordings.push(recording);
    const server = await start({ mock: recording.mock });
    const create = async (name: string) => {
      const response = await fetch(`${server.url}${API}/collections`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ name }),
      });
      return { status: response.status, body: (await response.json()) as Record<string, unknown> };
    };

    const answered: Array<{ status: number; body: Record<string, unknown> }> = [];
    for (let i = 0; i < 60; i++) {
      if (i === 5) disk.shortOnce(7); // a short write, no error: the rest follows
      if (i === 20) disk.room = 1_000; // a few lines fit, then the disk is full
      if (i === 40) disk.room = Infinity; // space freed
      answered.push(await create(`collection ${i}`));
    }

    const refused = answered.filter((a) => a.status === 507);
    const created = answered.filter((a) => a.status === 201);
    expect(refused.length).toBeGreaterThan(10);
    expect(created.length + refused.length).toBe(60);
    for (const { body } of refused) {
      expect(body.code).toBe('insufficient_storage');
      expect(body.detail).toContain('ENOSPC');
    }
    // Every creation answered 201 is in the recording, and nothing else is.
    const read = await readReplayFile(file, reading);
    const exchanges = read.sequences.flatMap((s) => s.exchanges);
    expect(exchanges.map((e) => (e.response as { id: string }).id)).toEqual(
      created.map((a) => a.body.id),
    );
    expect(exchanges.every((e) => e.status === 201)).toBe(true);
    expect((await readFile(file, 'utf8')).endsWith('\n')).toBe(true);
    // What the refused requests changed in memory is not in the recording: replay is told so.
    const afterGap = exchanges.findIndex((e) => e.afterOutsideChange);
    expect(afterGap).toBeGreaterThan(0);
    expect(errors).toEqual([
      expect.stringMatching(/^--record .*: ENOSPC; API requests are answered 507 until/),
      expect.stringMatching(/written again$/),
    ]);
  });

  it('syncs a write’s line before answering it, as the state file does; a read’s or a refusal’s is only written', async () => {
    const file = join(dir, 'session.jsonl');
    const synced: number[] = [];
    const { mock, state } = await assemble();
    const recording = await startSessionRecording(
      file,
      mock,
      () => state.store.apiKeys,
      () => [state.store, state.store.version],
      {
        openFile: async (path, flags, mode) => {
          const handle = await open(path, flags, mode);
          const datasync = handle.datasync.bind(handle);
          handle.datasync = async () => {
            synced.push((await readFile(file, 'utf8').catch(() => '')).split('\n').length - 1);
            return datasync();
          };
          return handle;
        },
      },
    );
    recordings.push(recording);
    const server = await start({ mock: recording.mock });
    synced.length = 0; // the new file's first line, synced before it is renamed into place
    const read = await fetch(`${server.url}${API}/collections`, { headers });
    await read.arrayBuffer();
    const refused = await fetch(`${server.url}${API}/collections`, { method: 'POST', body: '{}' });
    expect(refused.status).toBe(401);
    expect(synced).toEqual([]);
    const created = await fetch(`${server.url}${API}/collections`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ name: 'synced' }),
    });
    expect(created.status).toBe(201);
    expect(synced).toEqual([4]); // the header, the read, the refusal and the write, before the 201
  });

  it('answers 507 once the file reaches --record-max-bytes, and keeps it within it', async () => {
    const file = join(dir, 'session.jsonl');
    const { mock, state } = await assemble();
    const recording = await startSessionRecording(
      file,
      mock,
      () => state.store.apiKeys,
      () => [state.store, state.store.version],
      { maxBytes: 4_096, onError: () => undefined },
    );
    recordings.push(recording);
    const server = await start({ mock: recording.mock });
    const statuses: number[] = [];
    for (let i = 0; i < 30; i++) {
      const response = await fetch(`${server.url}${API}/collections/col_none`, { headers });
      statuses.push(response.status);
      if (response.status === 507)
        expect(((await response.json()) as { detail: string }).detail).toMatch(/full/);
      else await response.arrayBuffer();
    }
    const kept = statuses.filter((s) => s !== 507).length;
    expect(kept).toBeGreaterThan(0);
    expect(statuses.slice(kept).every((s) => s === 507)).toBe(true);
    const text = await readFile(file, 'utf8');
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(4_096);
    expect(text.trimEnd().split('\n')).toHaveLength(kept + 1);
  });
});
