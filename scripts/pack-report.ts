/**
 * `npm run pack:report`: what `npm pack` would publish (it builds dist/ first, through prepack):
 * the packed and unpacked size, the file count, the files by folder and the largest ones. Fails
 * (exit 1) when the tarball holds a file twice (the same bytes under two names) or a test or
 * build leftover. Its output is kept in docs/package.md.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

if (process.argv.includes('--help')) {
  console.log(`Usage: npm run pack:report

Builds and packs the package without writing the tarball (npm pack --dry-run), prints its size
and files, and exits 1 when it holds a duplicate file or a test or build leftover.`);
  process.exit(0);
}

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** Paths that are never published: tests, source maps, build state, scratch folders. */
const LEFTOVER =
  /(^|\/)(test|tests|__tests__|coverage|\.tmp)\/|\.(test|spec|bench)\.[cm]?[jt]s$|\.map$|\.tsbuildinfo$|(^|\/)\.DS_Store$/;

interface Packed {
  name: string;
  version: string;
  size: number;
  unpackedSize: number;
  entryCount: number;
  files: Array<{ path: string; size: number }>;
}

// @note stdio: the build that prepack runs prints to stderr, `--json` alone goes to stdout.
const [packed] = JSON.parse(
  execFileSync('npm', ['pack', '--dry-run', '--json'], {
    cwd: ROOT,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  }),
) as [Packed];

const kb = (bytes: number) => `${(bytes / 1000).toFixed(1)} kB`;
const folder = (path: string) => {
  const parts = path.split('/');
  return parts.length <= 1 ? '(root)' : parts.slice(0, Math.min(parts.length - 1, 3)).join('/');
};

const byFolder = new Map<string, { files: number; bytes: number }>();
for (const file of packed.files) {
  const entry = byFolder.get(folder(file.path)) ?? { files: 0, bytes: 0 };
  entry.files += 1;
  entry.bytes += file.size;
  byFolder.set(folder(file.path), entry);
}

// @note Small files are left out: many `.d.ts` of modules without types are the same few bytes.
const byContent = new Map<string, string[]>();
for (const file of packed.files.filter((f) => f.size >= 1024)) {
  const hash = createHash('sha256')
    .update(readFileSync(`${ROOT}/${file.path}`))
    .digest('hex');
  byContent.set(hash, [...(byContent.get(hash) ?? []), file.path]);
}
const duplicates = [...byContent.values()].filter((paths) => paths.length > 1);
const leftovers = packed.files.map((f) => f.path).filter((path) => LEFTOVER.test(path));

console.log(`${packed.name}@${packed.version}`);
console.log(`packed (tarball)  ${kb(packed.size)}`);
console.log(`unpacked          ${kb(packed.unpackedSize)}`);
console.log(`files             ${packed.entryCount}`);
console.log('');
console.log('folder                          files   unpacked');
for (const [name, entry] of [...byFolder].sort(([a], [b]) => a.localeCompare(b))) {
  console.log(
    `${name.padEnd(30)} ${String(entry.files).padStart(6)} ${kb(entry.bytes).padStart(10)}`,
  );
}
console.log('');
console.log('largest files');
for (const file of [...packed.files].sort((a, b) => b.size - a.size).slice(0, 8)) {
  console.log(`${kb(file.size).padStart(10)}  ${file.path}`);
}
console.log('');
console.log(`duplicates (same bytes, 1 kB and over): ${duplicates.length === 0 ? 'none' : ''}`);
for (const paths of duplicates) console.log(`  ${paths.join(' = ')}`);
console.log(`test or build leftovers: ${leftovers.length === 0 ? 'none' : ''}`);
for (const path of leftovers) console.log(`  ${path}`);
process.exitCode = duplicates.length > 0 || leftovers.length > 0 ? 1 : 0;
