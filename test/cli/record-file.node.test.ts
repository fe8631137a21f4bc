/**
 * What `answers-mock --record FILE` may write to: never the state file, its lock or the fixture
 * (a usage error at start, exit 2, the file unchanged); an existing file only when it is a
 * recording (continued: a sequence per start) or with `--force`.
 */
import { spawn } from 'node:child_process';
import {
  copyFile,
  mkdtemp,
  readFile,
  readdir,
  rm,
  stat,
  symlink,
  writeFile,
} from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readReplayFile } from '../../src/contract/replay/read-file.ts';
import { DEFAULT_DESCRIPTION } from '../../src/contract/target-api/description.ts';
import { mockBin } from '../support/bins.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const FIXTURE = join(ROOT, 'fixtures/default-state.json');

/** Runs `answers-mock` with `args`; sends one GET once it listens (if it does), then SIGTERM. */
function mock(args: string[]) {
  const env = { ...process.env };
  delete env.PORT;
  delete env.HOST;
  const child = spawn(process.execPath, mockBin('--port', '0', '--quiet', ...args), {
    cwd: ROOT,
    env,
  });
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
    const base = /(http:\/\/127\.0\.0\.1:\d+)\/api\/answers\/v1/.exec(stdout)?.[1];
    if (base && !child.killed)
      void fetch(`${base}/api/answers/v1/collections`, {
        headers: { 'x-answers-api-key': 'answers_test_full_acme' },
      }).then(() => child.kill('SIGTERM'));
  });
  return new Promise<{ code: number | null; stderr: string }>((resolve) =>
    child.once('close', (code) => resolve({ code, stderr })),
  );
}

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'answers-record-file-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

const reading = { description: DEFAULT_DESCRIPTION, roleOf: () => 'unknown' as const };

describe('answers-mock --record refuses, at start, a file it must not write', () => {
  it('the state file, its lock and a link to it: exit 2, one line, the file unchanged', async () => {
    const state = join(dir, 'state.json');
    await copyFile(FIXTURE, state);
    const before = await readFile(state);
    await symlink(state, join(dir, 'link.json'));
    for (const [record, what] of [
      [state, 'state file (--state-file)'],
      [join(dir, 'link.json'), 'state file (--state-file)'],
      [`${state}.lock`, 'state file’s lock'],
    ] as const) {
      const { code, stderr } = await mock(['--state-file', state, '--record', record, '--force']);
      expect(code).toBe(2);
      expect(stderr.trim()).toBe(
        `answers-mock: --record ${record} is the ${what}: name another file`,
      );
      expect(await readFile(state)).toEqual(before);
    }
    expect((await readdir(dir)).sort()).toEqual(['link.json', 'state.json']);
  }, 60_000);

  it('the fixture: exit 2, one line, the file unchanged', async () => {
    const fixture = join(dir, 'fixture.json');
    await copyFile(FIXTURE, fixture);
    const before = await readFile(fixture);
    const { code, stderr } = await mock(['--fixture', fixture, '--record', fixture, '--force']);
    expect(code).toBe(2);
    expect(stderr.trim()).toBe(
      `answers-mock: --record ${fixture} is the fixture (--fixture): name another file`,
    );
    expect(await readFile(fixture)).toEqual(before);
  }, 30_000);

  it('a file that is not a recording, unless --force replaces it', async () => {
    const notes = join(dir, 'notes.txt');
    await writeFile(notes, 'my notes\n');
    const { code, stderr } = await mock(['--record', notes]);
    expect(code).toBe(2);
    expect(stderr.trim()).toBe(
      `answers-mock: --record ${notes} exists and is not a recording (answers-recording-lines/1): name a new file, or add --force to replace it`,
    );
    expect(await readFile(notes, 'utf8')).toBe('my notes\n');

    const forced = await mock(['--record', notes, '--force']);
    expect(forced.code).toBe(0);
    const recording = await readReplayFile(notes, reading);
    expect(recording.sequences.flatMap((s) => s.exchanges).map((e) => e.status)).toEqual([200]);
    expect((await stat(notes)).mode & 0o777).toBe(0o600);
    expect(await readdir(dir)).toEqual(['notes.txt']); // no temporary file left
  }, 60_000);

  it('a recording of the one-document form, which cannot be appended to, unless --force', async () => {
    const old = join(dir, 'old.json');
    const text = '{\n  "format": "answers-recording/1",\n  "sequences": []\n}\n';
    await writeFile(old, text);
    const { code, stderr } = await mock(['--record', old]);
    expect(code).toBe(2);
    expect(stderr).toMatch(/holds a recording of the one-document form/);
    expect(await readFile(old, 'utf8')).toBe(text);
  }, 30_000);
});

describe('answers-mock --record on a recording', () => {
  it('continues it: each start appends a sequence of its own, and replay reads them all', async () => {
    const file = join(dir, 'session.jsonl');
    expect((await mock(['--record', file])).code).toBe(0);
    const first = await readFile(file, 'utf8');
    expect((await mock(['--record', file])).code).toBe(0);
    const both = await readFile(file, 'utf8');
    expect(both.startsWith(first)).toBe(true);
    const recording = await readReplayFile(file, reading);
    expect(recording.sequences).toHaveLength(2);
    for (const sequence of recording.sequences) {
      expect(sequence.name).toMatch(/^answers-mock session, started \d{4}-/);
      expect(sequence.exchanges.map((e) => [e.operation, e.key, e.status])).toEqual([
        ['listCollections', 'full', 200],
      ]);
    }
  }, 60_000);
});
