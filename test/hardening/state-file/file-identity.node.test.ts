/**
 * A state file that is deleted, replaced or reached through a symbolic link while the mock runs:
 * nothing acknowledged is lost, nothing is written over a file that is not the mock's, and a link
 * stays a link.
 */
import {
  lstat,
  mkdtemp,
  readFile,
  readlink,
  rename,
  rm,
  symlink,
  writeFile,
} from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { StateJournal } from '../../../src/node/state-file/journal.ts';
import { mocksOnFilesClosedAfterEach, savedNames } from './mock-on-file.ts';

const { serve } = mocksOnFilesClosedAfterEach();
let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'answers-file-identity-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('a state file deleted while the mock runs', () => {
  it('is written again from the state in memory, said once, and keeps every acknowledged write', async () => {
    const file = join(dir, 'state.json');
    const notices: string[] = [];
    const { create, journal } = await serve(file, { onNotice: (line) => notices.push(line) });
    expect((await create('before')).status).toBe(201);
    await rm(file);
    const acknowledged: string[] = [];
    for (let i = 0; i < 50; i++) {
      const response = await create(`after ${i}`);
      if (response.status === 201) acknowledged.push(`after ${i}`);
    }
    expect(acknowledged).toHaveLength(50);
    expect(notices).toEqual([
      `the state file ${file} was deleted while the mock ran; it is written again from the mock's state`,
    ]);
    await journal.close();
    expect(await savedNames(file)).toEqual(expect.arrayContaining(['before', ...acknowledged]));
  });
});

describe('a state file replaced while the mock runs', () => {
  it('is not written over: the next write gets 507, and the mock holds nothing of it', async () => {
    const file = join(dir, 'state.json');
    const errors: string[] = [];
    const { create, names } = await serve(file, { onError: (e) => errors.push(e.message) });
    expect((await create('kept')).status).toBe(201);
    // Someone puts another file in its place, as a copy-then-rename does.
    const theirs = '{"someone":"else"}\n';
    await writeFile(join(dir, 'theirs.json'), theirs);
    await rename(join(dir, 'theirs.json'), file);
    const refused = await create('not written');
    expect(refused.status).toBe(507);
    expect(((await refused.json()) as { detail: string }).detail).toContain(
      'was replaced by another file',
    );
    expect(errors).toHaveLength(1);
    expect(await names()).toContain('kept');
    expect(await names()).not.toContain('not written');
    expect(await readFile(file, 'utf8')).toBe(theirs);
  });
});

describe('a state file reached through a symbolic link', () => {
  it('writes the file the link leads to, through compactions, and the link stays a link', async () => {
    const real = join(dir, 'real.json');
    const link = join(dir, 'link.json');
    await symlink('real.json', link);
    // @note Compacting after every append: each write renames a new file into place.
    const { create, journal } = await serve(link, { compaction: { minBytes: 0, ratio: 0 } });
    expect(journal.file).toBe(real);
    for (const name of ['one', 'two', 'three']) expect((await create(name)).status).toBe(201);
    await journal.settled();
    expect((await lstat(link)).isSymbolicLink()).toBe(true);
    expect(await readlink(link)).toBe('real.json');
    expect(await savedNames(real)).toEqual(expect.arrayContaining(['one', 'two', 'three']));
  });

  it('shares one lock between two links to one file', async () => {
    const real = join(dir, 'real.json');
    // @note The file does not exist yet: a link to where it will be is followed too.
    await symlink('real.json', join(dir, 'a.json'));
    await symlink(real, join(dir, 'b.json'));
    const first = await StateJournal.open(join(dir, 'a.json'));
    try {
      await expect(StateJournal.open(join(dir, 'b.json'))).rejects.toThrow(
        `${real} is in use by another answers-mock (process ${process.pid} `,
      );
    } finally {
      await first.journal.close();
    }
  });
});
