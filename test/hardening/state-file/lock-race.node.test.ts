/**
 * Two mocks started together on one state file: exactly one takes its lock and runs, the other
 * is refused with the "in use" error, every time, whether the lock is free or left by a dead
 * process (which both then try to take over). Raced 50 times each way by two processes that
 * take the lock module's lock directly (lock-racer.ts: a start of the CLI costs seconds on a
 * loaded machine, 50 pairs of them minutes), and by one pair of full CLIs on a lock a dead mock
 * left, whose acknowledged writes are all kept.
 */
import { fork, spawn, type ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { thisInstance } from '../../../src/node/state-file/instance.ts';
import { API, FULL, ROOT } from '../security/servers.ts';
import { mockBin } from '../../support/bins.ts';

let dir: string;
const children: ChildProcess[] = [];
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'answers-lock-race-'));
});
afterAll(async () => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
  await rm(dir, { recursive: true, force: true });
});

type Answer = { race: number; held: boolean; message?: string } | 'ready' | 'released';

/** A racer process, and its next message (of race `n`, if given: later ones of earlier races are dropped). */
function startRacer() {
  const child = fork(join(import.meta.dirname, 'lock-racer.ts'), [], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  children.push(child);
  const waiting: Array<{ race?: number; resolve: (answer: Answer) => void }> = [];
  child.on('message', (message: Answer) => {
    const race = typeof message === 'object' ? message.race : undefined;
    if (waiting[0] && (waiting[0].race === undefined || waiting[0].race === race))
      waiting.shift()!.resolve(message);
  });
  const next = (race?: number) => new Promise<Answer>((resolve) => waiting.push({ race, resolve }));
  return { child, next, ready: next() };
}

/** The pid of a process that has ended and was reaped: what a crashed mock's lock names. */
let deadPid: number;
beforeAll(async () => {
  const child = spawn('true');
  await new Promise((resolve) => child.once('close', resolve));
  deadPid = child.pid!;
});

/** Leaves the lock a mock killed with SIGKILL leaves: in this version's form, or a file as earlier versions did. */
async function leaveDeadLock(file: string, form: Exclude<(typeof FORMS)[number], 'free'>) {
  const holder = `${JSON.stringify({ ...thisInstance(), pid: deadPid })}\n`;
  if (form === 'left by a dead mock of an earlier version (a file)')
    return writeFile(`${file}.lock`, holder);
  await mkdir(`${file}.lock`);
  await writeFile(join(`${file}.lock`, '0123456789abcdef'), holder);
}

const RACES = 50;
const FORMS = [
  'free',
  'left by a dead mock',
  'left by a dead mock of an earlier version (a file)',
] as const;

describe('two processes taking one state file’s lock together', () => {
  let a: ReturnType<typeof startRacer>;
  let b: ReturnType<typeof startRacer>;
  beforeAll(async () => {
    a = startRacer();
    b = startRacer();
    expect(await Promise.all([a.ready, b.ready])).toEqual(['ready', 'ready']);
  }, 60_000);

  /** Races the two for `file`'s lock (race `n`), then releases it: what each answered. */
  async function race(n: number, file: string) {
    const answers = await Promise.all(
      [a, b].map((racer) => {
        const answer = racer.next(n);
        racer.child.send({ race: n, file });
        return answer;
      }),
    );
    for (const [i, racer] of [a, b].entries()) {
      const answer = answers[i]!;
      if (typeof answer !== 'object' || !answer.held) continue;
      const released = racer.next();
      racer.child.send('release');
      await released;
    }
    return answers;
  }

  it.each(FORMS)(
    `lets exactly one take it and refuses the other, ${RACES} times, when the lock is %s`,
    async (form) => {
      const outcomes: string[] = [];
      for (let n = 0; n < RACES; n++) {
        const file = join(dir, `${FORMS.indexOf(form)}-${n}.json`);
        if (form !== 'free') await leaveDeadLock(file, form);
        const answers = await race(n, file);
        const held = answers.filter((answer) => typeof answer === 'object' && answer.held);
        const refused = answers.filter(
          (answer) =>
            typeof answer === 'object' &&
            answer.message?.startsWith(`${file} is in use by another answers-mock (process `),
        );
        const other = answers.filter(
          (answer) => !held.includes(answer) && !refused.includes(answer),
        );
        const otherwise = other.length > 0 ? `, ${JSON.stringify(other)}` : '';
        outcomes.push(`${held.length} held, ${refused.length} refused${otherwise}`);
      }
      expect(outcomes).toEqual(Array(RACES).fill('1 held, 1 refused'));
    },
    60_000,
  );
});

describe('two answers-mock started together on one state file', () => {
  const headers = { authorization: `Bearer ${FULL}`, 'content-type': 'application/json' };

  function start(file: string) {
    const env = { ...process.env };
    delete env.PORT;
    delete env.HOST;
    const child = spawn(
      process.execPath,
      mockBin('--port', '0', '--quiet', '--empty', '--state-file', file),
      { cwd: ROOT, env },
    );
    children.push(child);
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    return new Promise<
      | { child: ChildProcess; base: string }
      | { child: ChildProcess; code: number | null; err: string }
    >((resolve) => {
      child.stdout.on('data', () => {
        const match = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
        if (match) resolve({ child, base: match[1]! });
      });
      child.once('close', (code) => resolve({ child, code, err }));
    });
  }

  /** Starts two on `file`: the one that runs; the other must have exited 2, saying why. */
  async function pair(file: string) {
    const both = await Promise.all([start(file), start(file)]);
    const running = both.filter((one) => 'base' in one);
    const refused = both.filter((one) => 'code' in one);
    expect(running).toHaveLength(1);
    expect(refused.map((one) => [one.code, one.err.trim()])).toEqual([
      [2, expect.stringMatching(`^answers-mock: ${file} is in use by another answers-mock`)],
    ]);
    return running[0] as { child: ChildProcess; base: string };
  }

  it('runs one of them on a lock a dead mock left, and keeps every create it acknowledged', async () => {
    const file = join(dir, 'cli.json');
    await leaveDeadLock(file, 'left by a dead mock');
    const names = Array.from({ length: 20 }, (_, n) => `c${n}`);
    const { child, base } = await pair(file);
    for (const name of names) {
      const response = await fetch(`${base}${API}/collections`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ name }),
      });
      expect(response.status).toBe(201);
    }
    const gone = new Promise((resolve) => child.once('close', resolve));
    child.kill('SIGKILL');
    await gone;
    const next = await start(file);
    if (!('base' in next)) throw new Error(`the mock did not start again: ${next.err}`);
    const list = await fetch(`${next.base}${API}/collections?limit=100`, { headers });
    const kept = ((await list.json()) as { data: Array<{ name: string }> }).data;
    expect(kept.map((c) => c.name).sort()).toEqual(names.sort());
  }, 60_000);
});
