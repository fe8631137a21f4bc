/**
 * The state file's lock after a crash: a lock that names a process which is gone is taken over,
 * even when the pid is this process's own (a mock that was PID 1 in a container restarts as
 * PID 1), the host name is new (a container made afresh), or the machine restarted; a lock this
 * mock cannot look up (another container or host) is taken over only once its holder stopped
 * refreshing it, and never while it does.
 */
import { readFileSync } from 'node:fs';
import {
  mkdir,
  mkdtemp,
  readdir,
  readFile,
  rename,
  rm,
  unlink,
  utimes,
  writeFile,
} from 'node:fs/promises';
import { utimesSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { StateJournal } from '../../../src/node/state-file/journal.ts';
import { thisInstance } from '../../../src/node/state-file/instance.ts';
import { mocksOnFilesClosedAfterEach } from './mock-on-file.ts';

const { serve, journals } = mocksOnFilesClosedAfterEach();
let dir: string;
let file: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'answers-lock-'));
  file = join(dir, 'state.json');
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const me = thisInstance();
const anHourAgo = new Date(Date.now() - 3_600_000);

/** Opens the journal (which takes the lock) and keeps it to be closed after the test. */
async function open(options: Parameters<typeof StateJournal.open>[1] = {}) {
  const opened = await StateJournal.open(file, { onNotice: () => undefined, ...options });
  journals.push(opened.journal);
  return opened.journal;
}

/** Leaves a lock as a crashed mock would, untouched since `touched`: a file as earlier versions wrote it. */
async function leaveLock(text: string, touched = new Date(), earlierVersion = false) {
  const holder = earlierVersion ? `${file}.lock` : join(`${file}.lock`, '0123456789abcdef');
  if (!earlierVersion) await mkdir(`${file}.lock`);
  await writeFile(holder, text);
  await utimes(holder, touched, touched);
  return holder;
}

/** The text of the one holder's file in the lock. */
async function heldBy() {
  const names = await readdir(`${file}.lock`);
  expect(names).toHaveLength(1);
  return readFile(join(`${file}.lock`, names[0]!), 'utf8');
}

const json = (fields: Record<string, unknown>) => `${JSON.stringify(fields)}\n`;
/** A process 1 this mock cannot look up: in another container on this machine, or elsewhere. */
const otherContainer = { ...me, pid: 1, host: 'a0b1c2d3e4f5', pidNamespace: 'pid:[4026532001]' };
const otherHost = {
  ...me,
  pid: 1,
  host: 'elsewhere',
  boot: '11111111-1111-1111-1111-111111111111',
  pidNamespace: 'pid:[4026531836]',
};

describe('a lock left by a crash', () => {
  it.each([
    ['names this pid and host, as earlier versions wrote it', `${process.pid} ${hostname()}\n`],
    ['is a file naming this pid, as earlier versions left it', json({ ...me, started: '1' }), true],
    [
      'names this pid, boot and PID namespace, with another start time (PID 1 restarting)',
      json({ ...me, started: '1' }),
    ],
    [
      'names pid 1 on this host name in another boot',
      json({ ...me, pid: 1, boot: '00000000-0000-0000-0000-000000000000' }),
    ],
  ])('is taken over at once when it %s', async (_, text, earlierVersion = false) => {
    await leaveLock(text, new Date(), earlierVersion);
    await open();
    expect(await heldBy()).toBe(json({ ...me }));
  });

  it.each([
    ['another container (a new host name and PID namespace)', otherContainer],
    [
      'another PID namespace (this container before it restarted)',
      { ...me, pid: 1, pidNamespace: 'pid:[4026532002]' },
    ],
    ['another host (another boot id and host name)', otherHost],
  ])(
    'is taken over at once when it names pid 1 in %s and was not refreshed for the stale time',
    async (_, holder) => {
      await leaveLock(json(holder), anHourAgo);
      await open();
      expect(await heldBy()).toBe(json({ ...me }));
    },
  );

  it('names the process of another host it waits for, and takes its lock over when it is not refreshed', async () => {
    await leaveLock(json(otherHost));
    const notices: string[] = [];
    await open({ lock: { staleMs: 200 }, onNotice: (line) => notices.push(line) });
    expect(notices).toEqual([
      expect.stringContaining(
        `${file}.lock names process 1 on elsewhere, which this mock cannot look up (another host or container)`,
      ),
    ]);
  });
});

describe('a live lock', () => {
  it('of another host, refreshed while the mock waits, is not taken over', async () => {
    const holder = await leaveLock(json(otherHost));
    const refreshed = new Date(Date.now() + 1_000);
    const opening = open({
      lock: { staleMs: 200 },
      // @note Its holder refreshes it when the mock says it waits, before the wait can end.
      onNotice: () => utimesSync(holder, refreshed, refreshed),
    });
    await expect(opening).rejects.toThrow(
      `${file} is in use by another answers-mock (process 1 on elsewhere), which refreshed its lock`,
    );
    expect(readFileSync(holder, 'utf8')).toBe(json(otherHost));
  });

  it('is kept fresh by its holder, which refuses writes once it is taken over', async () => {
    let lost!: (error: Error) => void;
    const lostIt = new Promise<Error>((resolve) => (lost = resolve));
    const { create } = await serve(file, { lock: { refreshMs: 10 }, onError: (e) => lost(e) });
    expect((await create('mine')).status).toBe(201);
    // @note Another holder's file put in place at once (so that a refresh cannot read it
    // half-written), then this one's removed: a refresh sees either the lock as it was, or
    // taken over, never a moment with no holder.
    const [mine] = await readdir(`${file}.lock`);
    await writeFile(join(dir, 'other'), json(otherHost));
    await rename(join(dir, 'other'), join(`${file}.lock`, 'fedcba9876543210'));
    await unlink(join(`${file}.lock`, mine!));
    expect((await lostIt).message).toBe(
      `its lock ${file}.lock was taken over by process 1 on elsewhere`,
    );
    expect((await create('after')).status).toBe(507);
  });
});
