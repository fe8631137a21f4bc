import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { RecordingLine } from '../../src/openapi/recording.ts';
import { mockBin } from '../support/bins.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

function run(args: string[]): ChildProcessWithoutNullStreams {
  const env = { ...process.env };
  delete env.PORT;
  delete env.HOST;
  return spawn(process.execPath, mockBin(...args), { cwd: ROOT, env });
}

/** Resolves with stdout once it matches `pattern`; rejects after `ms` or if the process exits. */
function waitForOutput(child: ChildProcessWithoutNullStreams, pattern: RegExp, ms: number) {
  return new Promise<RegExpExecArray>((resolve, reject) => {
    let out = '';
    let err = '';
    const timer = setTimeout(() => fail(`no match for ${pattern} within ${ms} ms`), ms);
    const fail = (why: string) => {
      clearTimeout(timer);
      reject(new Error(`${why}\nstdout: ${out}\nstderr: ${err}`));
    };
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = pattern.exec(out);
      if (match) {
        clearTimeout(timer);
        resolve(match);
      }
    });
    child.once('exit', (code) => fail(`exited with ${code}`));
  });
}

function exited(child: ChildProcessWithoutNullStreams) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('answers-mock CLI', () => {
  it('starts on a free port, serves the API with a dev key and stops on SIGTERM', async () => {
    const child = run(['--port', '0', '--quiet']);
    const end = exited(child);
    try {
      const [, base] = await waitForOutput(
        child,
        /(http:\/\/127\.0\.0\.1:\d+)\/api\/answers\/v1/,
        20_000,
      );
      const response = await fetch(`${base}/api/answers/v1/collections`, {
        headers: { 'x-answers-api-key': 'answers_test_full_globex' },
      });
      expect(response.status).toBe(200);
      expect(((await response.json()) as { data: unknown[] }).data).toHaveLength(2);
      child.kill('SIGTERM');
      const { code, stdout } = await end;
      expect(code).toBe(0);
      expect(stdout).toContain('answers_test_full_acme');
      expect(stdout.trimEnd()).toMatch(/stopped$/);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  }, 30_000);

  /**
   * `answers-mock --record FILE` on a free port: `use` gets its API root, sends requests and ends
   * the process; then what the process exited with and the file it left.
   */
  async function recordedSession(
    use: (api: string, child: ChildProcessWithoutNullStreams) => Promise<void>,
  ): Promise<{ code: number | null; text: string }> {
    const folder = await mkdtemp(join(tmpdir(), 'answers-mock-record-'));
    const file = join(folder, 'session.json');
    const child = run(['--port', '0', '--quiet', '--record', file]);
    const end = exited(child);
    try {
      const [, base] = await waitForOutput(
        child,
        /(http:\/\/127\.0\.0\.1:\d+)\/api\/answers\/v1/,
        20_000,
      );
      await use(`${base}/api/answers/v1`, child);
      const { code } = await end;
      return { code, text: await readFile(file, 'utf8') };
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
      await rm(folder, { recursive: true, force: true });
    }
  }
  /** The exchanges of a `--record` file (JSON Lines: a format line, then one per exchange). */
  const exchangesOf = (text: string) =>
    text
      .trimEnd()
      .split('\n')
      .slice(1)
      .map((line) => (JSON.parse(line) as RecordingLine).exchange);
  const list = (api: string, key: string) =>
    fetch(`${api}/collections`, { headers: { 'x-answers-api-key': key } });

  it('records the API exchanges with --record, keys by role', async () => {
    const { code, text } = await recordedSession(async (api, child) => {
      expect((await list(api, 'answers_test_full_acme')).status).toBe(200);
      expect((await list(api, 'answers_test_inactive_acme')).status).toBe(401);
      child.kill('SIGTERM');
    });
    expect(code).toBe(0);
    expect(text.split('\n', 1)[0]).toBe('{"format":"answers-recording-lines/1"}');
    expect(exchangesOf(text).map((e) => [e.operation, e.key, e.status])).toEqual([
      ['listCollections', 'full', 200],
      ['listCollections', 'inactive', 401],
    ]);
    expect(text).not.toContain('answers_test_');
  }, 30_000);

  it('keeps every exchange it answered in the --record file through a kill -9', async () => {
    let statuses: number[] = [];
    const { code, text } = await recordedSession(async (api, child) => {
      const keys = ['answers_test_full_acme', 'answers_test_readonly_acme', 'nope'];
      statuses = await Promise.all(keys.map(async (key) => (await list(api, key)).status));
      child.kill('SIGKILL');
    });
    expect(code).toBeNull(); // ended by the signal, no clean-up ran
    expect(
      exchangesOf(text)
        .map((e) => `${e.key} ${e.status}`)
        .sort(),
    ).toEqual([`full ${statuses[0]}`, `readonly ${statuses[1]}`, `unknown ${statuses[2]}`].sort());
  }, 30_000);

  it('exits with 2 at start when the --record file cannot be written', async () => {
    const { code, stderr } = await exited(
      run(['--port', '0', '--record', '/nonexistent-dir/x.json']),
    );
    expect(code).toBe(2);
    expect(stderr.trim()).toBe('answers-mock: --record /nonexistent-dir/x.json: ENOENT');
  });

  it('exits with 2 and a one-line error on a non-numeric port', async () => {
    const { code, stdout, stderr } = await exited(run(['--port', 'abc']));
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stderr).toMatch(/port/);
    expect(stderr).not.toMatch(/\n\s+at /);
  }, 30_000);

  it('exits with 2 and a one-line error on a missing fixture', async () => {
    const { code, stderr } = await exited(run(['--port', '0', '--fixture', 'no/such/file.json']));
    expect(code).toBe(2);
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stderr).toContain('no/such/file.json');
  }, 30_000);
});
