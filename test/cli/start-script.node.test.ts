/**
 * `npm start` (`scripts/start.js`): the mock from a bundle of src/ kept in node_modules/.cache,
 * bundled again first when a file it was built from has changed.
 */
import { spawn } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const MANIFEST = new URL('../../node_modules/.cache/answers-mock-start.json', import.meta.url);

/** Runs `node scripts/start.js`, asks for the first page with a dev key, stops it with SIGTERM. */
async function startOnce(): Promise<{ status: number; code: number | null; stderr: string }> {
  const env = { ...process.env };
  delete env.PORT;
  delete env.HOST;
  const child = spawn(process.execPath, ['scripts/start.js', '--port', '0', '--quiet'], {
    cwd: ROOT,
    env,
  });
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const closed = new Promise<number | null>((resolve) => child.once('close', resolve));
  try {
    const base = await new Promise<string>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => {
        stdout += chunk.toString();
        const match = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(stdout);
        if (match) resolve(match[1]!);
      });
      void closed.then((code) => reject(new Error(`exited with ${code}\n${stdout}\n${stderr}`)));
    });
    const response = await fetch(`${base}/api/answers/v1/collections`, {
      headers: { authorization: 'Bearer answers_test_full_acme' },
    });
    child.kill('SIGTERM');
    return { status: response.status, code: await closed, stderr };
  } finally {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }
}

it('bundles src/ again when a file it was built from changed, then serves and stops on SIGTERM', async () => {
  // A first start makes sure there is a bundle and a manifest to tamper with.
  await startOnce();
  const manifest = JSON.parse(await readFile(MANIFEST, 'utf8')) as {
    inputs: Record<string, string>;
  };
  expect(Object.keys(manifest.inputs)).toContain('src/bin/answers-mock.ts');
  expect(Object.keys(manifest.inputs)).toContain('src/core/handle-request.ts');
  manifest.inputs['src/bin/answers-mock.ts'] = 'the hash of an older version';
  await writeFile(MANIFEST, JSON.stringify(manifest));

  const rebuilt = await startOnce();
  expect(rebuilt.stderr).toContain('bundling src/ for npm start');
  expect(rebuilt.status).toBe(200);
  expect(rebuilt.code).toBe(0);

  const reused = await startOnce();
  expect(reused.stderr).not.toContain('bundling');
  expect(reused.status).toBe(200);
  expect(reused.code).toBe(0);
}, 120_000);
