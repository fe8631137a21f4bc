// @ts-check
/**
 * `npm start`: the `answers-mock` command from a bundle of src/ (`scripts/bundle-bin.ts`), which is
 * what makes it start in a fraction of a second (through tsx it took 1.7 s). The bundle lives in
 * node_modules/.cache and is rebuilt first (about 2 s) when a file it was built from has changed,
 * so a fresh clone needs only `npm ci`, and an edit to src/ is served on the next start.
 * Plain JavaScript: it runs before anything is compiled.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import console from 'node:console';
import process from 'node:process';
import { fileURLToPath, URL } from 'node:url';

const root = new URL('..', import.meta.url);
const bundle = new URL('node_modules/.cache/answers-mock-start.js', root);
const manifest = new URL('node_modules/.cache/answers-mock-start.json', root);

/** Whether every file the bundle was built from still has the bytes it had then. */
function isFresh() {
  let inputs;
  try {
    inputs = JSON.parse(readFileSync(manifest, 'utf8')).inputs;
  } catch {
    return false;
  }
  return Object.entries(inputs).every(([file, hash]) => {
    let now = 'missing';
    try {
      now = createHash('sha1')
        .update(readFileSync(new URL(file, root)))
        .digest('hex');
    } catch {
      // A file that is gone has the hash "missing", as in the manifest.
    }
    return now === hash;
  });
}

if (!isFresh()) {
  console.error(
    'answers-mock: bundling src/ for npm start (its first start, or a source changed since the last)',
  );
  const built = spawnSync(
    process.execPath,
    ['--import', 'tsx', 'scripts/bundle-bin.ts', '--start'],
    { cwd: fileURLToPath(root), stdio: 'inherit' },
  );
  if (built.status !== 0) process.exit(built.status ?? 1);
}
await import(bundle.href);
