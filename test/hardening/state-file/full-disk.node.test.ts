/**
 * A state file on a disk that fills up: a write is answered only once its whole line is on disk.
 * The disk (disk.ts) is real files behind the journal's `openFile` seam, whose writes go short
 * and then fail with ENOSPC, as write(2) does on a full file system.
 */
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fillingDisk } from './disk.ts';
import { mocksOnFilesClosedAfterEach, savedNames } from './mock-on-file.ts';
import { API } from '../security/servers.ts';

const { serve } = mocksOnFilesClosedAfterEach();
let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'answers-full-disk-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('a state file on a full disk', () => {
  it('answers 507 for the write whose line does not fit, cuts the part written off, and holds nothing of it in memory', async () => {
    const file = join(dir, 'state.json');
    const disk = fillingDisk();
    const errors: Error[] = [];
    const { create, names, server } = await serve(file, {
      openFile: disk.open,
      onError: (error) => errors.push(error),
    });
    for (const name of ['kept 1', 'kept 2', 'kept 3'])
      expect((await create(name)).status).toBe(201);
    const before = (await stat(file)).size;

    disk.room = 10; // the start of the next line fits, the rest does not
    const failed = await create('does not fit');
    expect(failed.status).toBe(507);
    const problem = (await failed.json()) as { code: string; detail: string };
    expect(problem.code).toBe('insufficient_storage');
    expect(problem.detail).toContain('ENOSPC');
    expect(errors.map((e) => e.message)).toEqual(['ENOSPC: no space left on device, write']);

    // The file is cut back to its last whole line, and the state answered from is the file's.
    expect((await stat(file)).size).toBe(before);
    expect((await readFile(file, 'utf8')).endsWith('\n')).toBe(true);
    const shown = await names();
    expect(shown).toEqual(expect.arrayContaining(['kept 1', 'kept 2', 'kept 3']));
    expect(shown).not.toContain('does not fit');
    expect((await savedNames(file)).sort()).toEqual([...shown].sort());

    // Later writes are refused before they are made; reads go on.
    disk.room = Infinity;
    expect((await create('after')).status).toBe(507);
    expect(await names()).not.toContain('after');
    const reset = await fetch(`${server.url}/__mock/reset`, { method: 'POST' });
    expect(reset.status).toBe(507);
  });

  it('acknowledges a line the disk took in two writes only once both are written', async () => {
    const file = join(dir, 'state.json');
    const disk = fillingDisk();
    const { create } = await serve(file, { openFile: disk.open });
    disk.shortOnce(5); // a short write with no error: the rest is written by the next one
    expect((await create('in two pieces')).status).toBe(201);
    expect((await create('after it')).status).toBe(201);
    expect(await savedNames(file)).toEqual(expect.arrayContaining(['in two pieces', 'after it']));
  });

  it('answers 507 for a reset that cannot be written, and keeps the data as it was', async () => {
    const file = join(dir, 'state.json');
    const disk = fillingDisk();
    const { create, names, server } = await serve(file, {
      openFile: disk.open,
      onError: () => undefined,
    });
    expect((await create('kept')).status).toBe(201);
    disk.room = 100; // a reset writes the whole state to a new file: a few lines fit, not all
    const reset = await fetch(`${server.url}/__mock/reset`, { method: 'POST' });
    expect(reset.status).toBe(507);
    expect(await names()).toContain('kept');
    expect(await savedNames(file)).toContain('kept');
    const list = await fetch(`${server.url}${API}/collections?limit=100`, {
      headers: { authorization: 'Bearer answers_test_full_acme' },
    });
    expect(list.status).toBe(200);
  });
});
