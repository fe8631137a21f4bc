/**
 * `--state-file` as a user meets it, through the CLI: nothing acknowledged is lost to a
 * `kill -9`, one process per file, the directory checked at start, files only the owner can
 * read, and a damaged file refused without being overwritten.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import {
  lstat,
  mkdtemp,
  readdir,
  readFile,
  rm,
  stat,
  symlink,
  utimes,
  writeFile,
} from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { thisInstance } from '../../../src/node/state-file/instance.ts';
import { readStateFile } from '../../../src/node/state-file/read.ts';
import { API, FULL, ROOT } from '../security/servers.ts';
import { mockBin } from '../../support/bins.ts';

let dir: string;
const children: ChildProcessWithoutNullStreams[] = [];
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'answers-state-file-'));
});
afterEach(async () => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
  await rm(dir, { recursive: true, force: true });
});

function run(args: string[]): ChildProcessWithoutNullStreams {
  const env = { ...process.env };
  delete env.PORT;
  delete env.HOST;
  const child = spawn(process.execPath, mockBin('--port', '0', '--quiet', ...args), {
    cwd: ROOT,
    env,
  });
  children.push(child);
  return child;
}

/** The base URL once the mock listens; rejects with its output if it exits first. */
function listening(child: ChildProcessWithoutNullStreams): Promise<string> {
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (match) resolve(match[1]!);
    });
    child.once('exit', (code) => reject(new Error(`exited with ${code}: ${err}`)));
  });
}

function exited(child: ChildProcessWithoutNullStreams) {
  return new Promise<{ code: number | null; stderr: string }>((resolve) => {
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('close', (code) => resolve({ code, stderr }));
  });
}

const headers = { authorization: `Bearer ${FULL}`, 'content-type': 'application/json' };

async function createCollection(base: string, name: string): Promise<string> {
  const response = await fetch(`${base}${API}/collections`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ name }),
  });
  expect(response.status).toBe(201);
  return ((await response.json()) as { id: string }).id;
}

/** Every object id of a collection, page by page. */
async function objectIds(base: string, collection: string): Promise<Set<string>> {
  const ids = new Set<string>();
  let cursor: string | undefined;
  do {
    const query = new URLSearchParams({ limit: '100', ...(cursor ? { cursor } : {}) });
    const response = await fetch(`${base}${API}/collections/${collection}/objects?${query}`, {
      headers,
    });
    const page = (await response.json()) as { data: Array<{ id: string }>; next_cursor?: string };
    for (const object of page.data) ids.add(object.id);
    cursor = page.next_cursor ?? undefined;
  } while (cursor);
  return ids;
}

describe('--state-file durability', () => {
  it('loses no acknowledged create when killed with SIGKILL in the middle of 2,000', async () => {
    const file = join(dir, 'state.json');
    const first = run(['--empty', '--state-file', file]);
    const base = await listening(first);
    const collection = await createCollection(base, 'durable');

    // @note Killed while 32 connections have creates in flight, after 1,000 were acknowledged;
    // the count only has to put the kill in the middle of them (it was 20,000, then 8,000 with
    // the kill at 4,000: the same proof, at up to 10 times the cost).
    const TOTAL = 2_000;
    const KILL_AFTER = 1_000;
    const CONNECTIONS = 32;
    const acknowledged: string[] = [];
    let sent = 0;
    let killed = false;
    const worker = async () => {
      while (sent < TOTAL && !killed) {
        sent += 1;
        const response = await fetch(`${base}${API}/collections/${collection}/objects`, {
          method: 'POST',
          headers,
          body: JSON.stringify({ content: { n: sent } }),
        }).catch(() => undefined); // refused or cut off by the kill
        if (response?.status !== 201) continue;
        acknowledged.push(((await response.json()) as { id: string }).id);
        if (acknowledged.length === KILL_AFTER && !killed) {
          // @note Killed while the other connections' creates are still in flight.
          killed = true;
          first.kill('SIGKILL');
        }
      }
    };
    const gone = exited(first);
    await Promise.all(Array.from({ length: CONNECTIONS }, worker));
    await gone;
    expect(acknowledged.length).toBeGreaterThanOrEqual(KILL_AFTER);

    // The lock of the killed process is stale: a new mock takes the file over.
    const second = run(['--state-file', file]);
    const again = await listening(second);
    const kept = await objectIds(again, collection);
    const lost = acknowledged.filter((id) => !kept.has(id));
    expect(lost).toEqual([]);
    second.kill('SIGTERM');
    await exited(second);
  }, 120_000);

  it('refuses a second mock on the same file, naming the process that holds it', async () => {
    const file = join(dir, 'state.json');
    const first = run(['--empty', '--state-file', file]);
    await listening(first);
    const second = exited(run(['--state-file', file]));
    const { code, stderr } = await second;
    expect(code).toBe(2);
    expect(stderr).toContain(`${file} is in use by another answers-mock (process ${first.pid} `);
  }, 30_000);

  it('starts every day from the same command: --empty only says what to start from the first time', async () => {
    const file = join(dir, 'dev.json');
    const first = run(['--empty', '--state-file', file]);
    const base = await listening(first);
    await createCollection(base, 'Kept overnight');
    first.kill('SIGTERM');
    await exited(first);
    const second = run(['--empty', '--state-file', file]);
    const said = exited(second);
    const again = await listening(second);
    const listed = await fetch(`${again}${API}/collections`, { headers });
    const names = ((await listed.json()) as { data: Array<{ name: string }> }).data.map(
      (c) => c.name,
    );
    expect(names).toEqual(['Kept overnight']);
    second.kill('SIGTERM');
    const { stderr } = await said;
    expect(stderr.trim().split('\n')).toEqual([
      `answers-mock: ${file} exists: continuing from it (--empty only says what to start from when it does not)`,
    ]);
  });

  it('takes over a lock whose process ended but is not reaped yet (a zombie)', async () => {
    // @note The shell starts a child that waits for a line, prints its pid and becomes `sleep`
    // (exec), which never reaps it. The line is sent only once the shell is `sleep`, so the
    // child ends after the exec, whatever the machine's speed, and stays a zombie while `sleep`
    // lives; kill(pid, 0) still answers for it. (Ending before the exec let the shell reap it.)
    const shell = spawn('sh', ['-c', 'exec 3<&0; (read line <&3) & echo $!; exec sleep 30']);
    children.push(shell as unknown as ChildProcessWithoutNullStreams);
    const pid = Number(
      await new Promise<string>((resolve) =>
        shell.stdout.once('data', (d: Buffer) => resolve(d.toString())),
      ),
    );
    const poll = async (done: () => Promise<boolean>, what: string) => {
      for (let tries = 0; !(await done()); tries++) {
        if (tries > 1_000) throw new Error(what);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    };
    const comm = () => readFile(`/proc/${shell.pid}/comm`, 'utf8').catch(() => '');
    await poll(async () => (await comm()).trim() === 'sleep', 'the shell never became sleep');
    shell.stdin.write('\n');
    const isZombie = async () =>
      (await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '')).includes(') Z ');
    await poll(isZombie, `process ${pid} never became a zombie`);
    const file = join(dir, 'state.json');
    await writeFile(`${file}.lock`, `${pid} ${hostname()}\n`);
    const child = run(['--state-file', file]);
    await expect(listening(child)).resolves.toMatch(/^http:/);
  }, 30_000);

  it('restarts on its state file after a crash as PID 1 of a container (a lock naming PID 1 from before the restart)', async () => {
    const file = join(dir, 'state.json');
    const first = run(['--empty', '--state-file', file]);
    const base = await listening(first);
    const id = await createCollection(base, 'before the crash');
    const gone = exited(first);
    first.kill('SIGKILL');
    await gone;
    // @note The lock the killed mock would have left as PID 1 of the container before it
    // restarted: this machine and host name, another PID namespace, and untouched since.
    const before = { ...thisInstance(), pid: 1, pidNamespace: 'pid:[4026532001]', started: '42' };
    const [left] = await readdir(`${file}.lock`);
    const holder = join(`${file}.lock`, left!);
    await writeFile(holder, `${JSON.stringify(before)}\n`);
    const crashed = new Date(Date.now() - 60_000);
    await utimes(holder, crashed, crashed);
    const second = run(['--state-file', file]);
    const again = await listening(second);
    const response = await fetch(`${again}${API}/collections/${id}`, { headers });
    expect(response.status).toBe(200);
  }, 30_000);

  it('refuses a state file in a directory that does not exist', async () => {
    const { code, stderr } = await exited(run(['--state-file', join(dir, 'missing', 's.json')]));
    expect(code).toBe(2);
    expect(stderr).toContain(
      `the directory of the state file, ${join(dir, 'missing')}, does not exist`,
    );
  }, 30_000);

  it('writes the file and its lock for the owner only, and removes stale temporary files', async () => {
    const file = join(dir, 'state.json');
    const stale = join(dir, '.state.json.0123456789abcdef.tmp');
    await writeFile(stale, 'left by a killed process');
    // The name the old writer used (state.json.tmp-<pid>) is never opened: a symlink planted
    // there to make the mock write elsewhere stays untouched, and so does its target.
    const target = join(dir, 'elsewhere');
    await writeFile(target, 'not the mock’s');
    const child = run(['--empty', '--state-file', file]);
    const base = await listening(child);
    await symlink(target, join(dir, `state.json.tmp-${child.pid}`));
    await createCollection(base, 'written');
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect((await stat(`${file}.lock`)).mode & 0o777).toBe(0o700);
    const [holder] = await readdir(`${file}.lock`);
    expect((await stat(join(`${file}.lock`, holder!))).mode & 0o777).toBe(0o600);
    expect((await readdir(dir)).sort()).toEqual(
      ['elsewhere', 'state.json', 'state.json.lock', `state.json.tmp-${child.pid}`].sort(),
    );
    child.kill('SIGTERM');
    await exited(child);
    expect(await readFile(target, 'utf8')).toBe('not the mock’s');
    expect((await lstat(join(dir, `state.json.tmp-${child.pid}`))).isSymbolicLink()).toBe(true);
    expect(await readdir(dir)).not.toContain('state.json.lock');
  }, 30_000);
});

describe('--state-file damage', () => {
  async function savedWithOneCollection(file: string) {
    const child = run(['--empty', '--state-file', file]);
    const base = await listening(child);
    const id = await createCollection(base, 'kept');
    child.kill('SIGTERM');
    await exited(child);
    return id;
  }

  it('leaves out a last line cut short by a crash, and appends after the last whole line', async () => {
    const file = join(dir, 'state.json');
    const id = await savedWithOneCollection(file);
    const whole = await readFile(file, 'utf8');
    await writeFile(file, `${whole}{"collection":{"id":"col_half`);
    const child = run(['--state-file', file]);
    const base = await listening(child);
    await createCollection(base, 'after');
    child.kill('SIGTERM');
    await exited(child);
    const saved = await readStateFile(file);
    if (saved.kind !== 'lines') throw new Error(saved.kind);
    expect(saved.snapshot.collections.map((c) => c.name).sort()).toEqual(['after', 'kept']);
    expect(saved.snapshot.collections.map((c) => c.id)).toContain(id);
  }, 30_000);

  it('says on stderr that a delete cut short by a crash was left out, and starts with the collection kept', async () => {
    const file = join(dir, 'state.json');
    const id = await savedWithOneCollection(file);
    await writeFile(file, `${await readFile(file, 'utf8')}{"collection_deleted":"${id}"}`);
    const child = run(['--state-file', file]);
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const base = await listening(child);
    expect(stderr).toContain(
      `answers-mock: the last line of the state file ${file} (${id.length + 25} bytes) was cut short when the mock stopped while writing it; its change was never acknowledged, so it is left out: it deleted collection ${id}, which is therefore kept with its objects; delete it again if it should be gone.\n`,
    );
    const response = await fetch(`${base}${API}/collections/${id}`, { headers });
    expect(response.status).toBe(200);
  }, 30_000);

  it('refuses a file with a damaged line in the middle, naming the line, and leaves it as it is', async () => {
    const file = join(dir, 'state.json');
    await savedWithOneCollection(file);
    const lines = (await readFile(file, 'utf8')).split('\n');
    lines.splice(1, 0, '{"collection":');
    const damaged = lines.join('\n');
    await writeFile(file, damaged);
    const { code, stderr } = await exited(run(['--state-file', file]));
    expect(code).toBe(2);
    expect(stderr).toMatch(/state\.json: line 2: not JSON/);
    expect(await readFile(file, 'utf8')).toBe(damaged);
  }, 30_000);

  it('continues from a plain JSON snapshot (an export, or a file of an earlier version)', async () => {
    const file = join(dir, 'state.json');
    const fixture = JSON.parse(
      await readFile(join(ROOT, 'fixtures/default-state.json'), 'utf8'),
    ) as { collections: Array<{ id: string }> };
    await writeFile(file, JSON.stringify(fixture, null, 2));
    const child = run(['--state-file', file]);
    const base = await listening(child);
    const response = await fetch(`${base}${API}/collections/${fixture.collections[0]!.id}`, {
      headers,
    });
    expect(response.status).toBe(200);
    child.kill('SIGTERM');
    await exited(child);
    expect((await readFile(file, 'utf8')).startsWith('{"answers_mock_state":1,')).toBe(true);
  }, 30_000);
});

describe('one state, two forms: what --state-file writes is handed on as it is', () => {
  async function saved(file: string): Promise<string> {
    const child = run(['--empty', '--state-file', file]);
    const base = await listening(child);
    const id = await createCollection(base, 'handed on');
    child.kill('SIGTERM');
    await exited(child);
    return id;
  }

  it('--fixture starts from a state file, and leaves the file as it was', async () => {
    const file = join(dir, 'state.jsonl');
    const id = await saved(file);
    const before = await readFile(file, 'utf8');
    const child = run(['--fixture', file]);
    const base = await listening(child);
    const response = await fetch(`${base}${API}/collections/${id}`, { headers });
    expect(response.status).toBe(200);
    expect(((await response.json()) as { name: string }).name).toBe('handed on');
    child.kill('SIGTERM');
    await exited(child);
    expect(await readFile(file, 'utf8')).toBe(before);
  }, 30_000);

  it('PUT /__mock/state loads a state file; a damaged line is a 400 naming it', async () => {
    const file = join(dir, 'state.jsonl');
    const id = await saved(file);
    const text = await readFile(file, 'utf8');
    const child = run(['--empty']);
    const base = await listening(child);
    const put = (body: string) =>
      fetch(`${base}/__mock/state`, {
        method: 'PUT',
        headers: { 'content-type': 'application/x-ndjson' },
        body,
      });
    expect((await put(text)).status).toBe(204);
    expect((await fetch(`${base}${API}/collections/${id}`, { headers })).status).toBe(200);
    const lines = text.split('\n');
    lines.splice(1, 0, '{"collection":');
    const refused = await put(lines.join('\n'));
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({
      code: 'invalid_state',
      detail: expect.stringMatching(/line 2: not JSON/),
    });
    // Refused whole: the state loaded before is still there.
    expect((await fetch(`${base}${API}/collections/${id}`, { headers })).status).toBe(200);
  }, 30_000);

  it('--fixture with a damaged state file: exit 2, one line naming the line', async () => {
    const file = join(dir, 'state.jsonl');
    await saved(file);
    const lines = (await readFile(file, 'utf8')).split('\n');
    lines.splice(1, 0, '{"collection":');
    await writeFile(file, lines.join('\n'));
    const { code, stderr } = await exited(run(['--fixture', file]));
    expect(code).toBe(2);
    expect(stderr).toMatch(
      /^answers-mock: fixture .*state\.jsonl is a state file, but its line 2: not JSON/,
    );
    expect(stderr.trim().split('\n')).toHaveLength(1);
  }, 30_000);
});
