/**
 * The temporary file `answers-mock --record` writes a new recording through: an unpredictable
 * name beside the file, created exclusively with mode 0600, so a symbolic link planted at its
 * name (or at the name it had before, `FILE.<pid>.tmp`) is never followed; removed on failure.
 */
import { lstat, mkdtemp, open, readFile, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { assemble } from '../../../src/assemble.ts';
import { startSessionRecording } from '../../../src/node/session-recording.ts';
import { fillingDisk } from '../state-file/disk.ts';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'answers-record-temporary-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

async function record(file: string, options: Parameters<typeof startSessionRecording>[4] = {}) {
  const { mock, state } = await assemble();
  return startSessionRecording(
    file,
    mock,
    () => state.store.apiKeys,
    () => [state.store],
    options,
  );
}

describe('the temporary file of --record', () => {
  it('never follows a symbolic link planted at its name: the file it points to is unchanged', async () => {
    const file = join(dir, 'session.jsonl');
    const victim = join(dir, 'victim.txt');
    await writeFile(victim, 'precious\n');
    // The name the temporary file had before: predictable from the process id.
    await symlink(victim, `${file}.${process.pid}.tmp`);
    // And whatever name it has now, planted the instant before it is created.
    const planted: string[] = [];
    const started = await record(file, {
      openFile: async (path, flags, mode) => {
        if (flags === 'wx') {
          planted.push(path);
          await symlink(victim, path);
        }
        return open(path, flags, mode);
      },
    }).catch((error: NodeJS.ErrnoException) => error);
    expect(await readFile(victim, 'utf8')).toBe('precious\n');
    expect((started as NodeJS.ErrnoException).code).toBe('EEXIST');
    expect(planted).toHaveLength(1);
    expect(planted[0]).toMatch(/\/\.session\.jsonl\.[0-9a-f]{16}\.tmp$/);
    expect((await lstat(file).catch(() => undefined))?.isFile()).toBeFalsy();
  });

  it('is removed when it cannot be written, and the recording is not created', async () => {
    const file = join(dir, 'session.jsonl');
    const disk = fillingDisk();
    disk.room = 0;
    await expect(record(file, { openFile: disk.open })).rejects.toMatchObject({ code: 'ENOSPC' });
    expect(await readdir(dir)).toEqual([]);
  });

  it('is created with mode 0600, so the recording is its owner’s only', async () => {
    const file = join(dir, 'session.jsonl');
    const modes: Array<number | undefined> = [];
    const recording = await record(file, {
      openFile: (path, flags, mode) => {
        modes.push(mode);
        return open(path, flags, mode);
      },
    });
    await recording.close();
    expect(modes[0]).toBe(0o600);
    expect((await lstat(file)).mode & 0o777).toBe(0o600);
    expect(await readdir(dir)).toEqual(['session.jsonl']);
  });
});
