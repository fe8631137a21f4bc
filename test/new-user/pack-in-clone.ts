/**
 * The README's own line `npm ci && npm pack` (the first line of the `install` block, and of
 * `ci-vendor`), run as typed in a fresh clone of this working tree, once for a folder: the pack
 * the install tier's files share (test/new-user/packed-kit.ts). No vitest here, so that .ci/run
 * can run it before the tier, beside its linters, with the very code the tier would run
 * (`node --import tsx test/new-user/pack-in-clone.ts FOLDER`): the tier then finds it done.
 *
 * The clone is keyed by a hash of the tracked files, so that an edit between two runs sharing a
 * folder makes a new pack. A pack that failed is recorded with its output: every file that asks
 * fails with it.
 */
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { cp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROOT } from '../docs/doc-blocks.ts';
import { commandsOf } from '../docs/readme-plan.ts';
import { withDirLock } from '../support/dir-lock.ts';
import { runLines } from './run-commands.ts';

/** The tarball `npm pack` writes, as the README names it. */
export const TARBALL = 'answers-mock-kit-0.1.0.tgz';

export interface PackedKit {
  /** The clone the line ran in, with its node_modules and dist/; the tarball in it. */
  clone: string;
  /** `clone`/TARBALL. */
  tarball: string;
  /** The line as run (its comment left out). */
  command: string;
  /** The Node version it ran on. */
  node: string;
}

/** The line the README's `install` block packs the kit with, without its comment. */
export function packLine(): string {
  return withoutComment(commandsOf('install')[0]!);
}

export function withoutComment(command: string): string {
  return command.replace(/\s+#.*$/, '');
}

function trackedFiles(): string[] {
  return execFileSync('git', ['ls-files', '-z'], { cwd: ROOT, encoding: 'utf8' })
    .split('\0')
    .filter(Boolean);
}

/** Copies the files a clone has (the tracked ones, as they are in this working tree) to `to`. */
async function cloneInto(to: string): Promise<void> {
  for (const file of trackedFiles())
    await cp(join(ROOT, file), join(to, file), { recursive: true });
}

/** A hash of what a clone holds: the names and bytes of the tracked files, as in this tree. */
function sourcesHash(): string {
  const hash = createHash('sha256');
  for (const file of trackedFiles()) {
    hash.update(`${file}\0`);
    hash.update(readFileSync(join(ROOT, file)));
    hash.update('\0');
  }
  return hash.digest('hex').slice(0, 16);
}

/**
 * The kit packed by the README's line in a fresh clone under `folder`: made by the first process
 * to ask, under a lock; the others (and later runs sharing the folder) wait for it, then use its
 * clone and tarball.
 */
export async function packInto(folder: string): Promise<PackedKit> {
  const base = join(folder, sourcesHash());
  const done = join(base, 'packed.json');
  const failed = join(base, 'failed.txt');
  const command = packLine();
  return withDirLock(`${base}.lock`, async () => {
    const found = await readFile(done, 'utf8').then(
      (text) => JSON.parse(text) as PackedKit,
      () => undefined,
    );
    if (found && found.command === command) return found;
    const failure = await readFile(failed, 'utf8').catch(() => undefined);
    if (failure !== undefined) throw new Error(failure);
    // Nothing, or what a killed run left half-made.
    await rm(base, { recursive: true, force: true });
    const clone = join(base, 'answers-mock-kit');
    await mkdir(clone, { recursive: true });
    await cloneInto(clone);
    const ran = await runLines([command], clone, {}, 600_000);
    if (ran.code !== 0) {
      const output = `${command} exited with ${ran.code} in a clone\n${ran.stdout.slice(-4000)}\n${ran.stderr}`;
      await writeFile(failed, output);
      throw new Error(output);
    }
    const packed: PackedKit = {
      clone,
      tarball: join(clone, TARBALL),
      command,
      node: process.version,
    };
    await writeFile(done, JSON.stringify(packed));
    return packed;
  });
}

const invokedDirectly =
  process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href;

if (invokedDirectly) {
  const folder = process.argv[2];
  if (!folder) {
    console.error('usage: node --import tsx test/new-user/pack-in-clone.ts FOLDER');
    process.exit(2);
  }
  packInto(folder).then(
    (packed) => console.log(`packed ${packed.tarball} (${packed.command}, Node ${packed.node})`),
    (error: unknown) => {
      console.error(error instanceof Error ? error.message : error);
      process.exitCode = 1;
    },
  );
}
