/**
 * The kit packed once a run for the install tier: the README's own line `npm ci && npm pack` (the
 * first line of the `install` block, and of `ci-vendor`), run as typed in a fresh clone of this
 * working tree. The README's blocks install its tarball (test/new-user, test/clone) and the
 * package test checks it (test/package). Packing does not depend on the msw major of an app, so
 * one pack serves every file of the tier and both passes of .ci/run (msw 2 on Node 20, msw 3 on
 * Node 24): each used to run the line, or `npm pack`, itself, five builds and three `npm ci` in
 * .ci/run where one of each proves the same (docs/performance.md).
 *
 * The first file to ask packs, under a lock, in the folder of the run
 * (packed-kit.global-setup.ts); the others wait for it, then use its clone and tarball. The
 * clone is keyed by a hash of the tracked files, so that an edit between two runs sharing a
 * folder makes a new pack. A pack that failed fails every file that asks, with its output.
 */
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, inject } from 'vitest';
import { ROOT } from '../docs/doc-blocks.ts';
import { commandsOf } from '../docs/readme-plan.ts';
import { withDirLock } from '../support/dir-lock.ts';
import { cloneInto } from './layout.ts';
// Its `kitPackDir`, which inject() reads below.
import type {} from './packed-kit.global-setup.ts';
import { recordRan, runLines } from './run-commands.ts';

/** The tarball `npm pack` writes, as the README names it. */
const TARBALL = 'answers-mock-kit-0.1.0.tgz';

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
function packLine(): string {
  return withoutComment(commandsOf('install')[0]!);
}

function withoutComment(command: string): string {
  return command.replace(/\s+#.*$/, '');
}

/** A hash of what a clone holds: the names and bytes of the tracked files, as in this tree. */
function sourcesHash(): string {
  const hash = createHash('sha256');
  const tracked = execFileSync('git', ['ls-files', '-z'], { cwd: ROOT, encoding: 'utf8' });
  for (const file of tracked.split('\0').filter(Boolean)) {
    hash.update(`${file}\0`);
    hash.update(readFileSync(join(ROOT, file)));
    hash.update('\0');
  }
  return hash.digest('hex').slice(0, 16);
}

let pending: Promise<PackedKit> | undefined;

/** The kit packed by the README's line in a fresh clone: once a run, by whichever file asks first. */
export function packedKit(): Promise<PackedKit> {
  pending ??= pack();
  return pending;
}

async function pack(): Promise<PackedKit> {
  const folder = inject('kitPackDir');
  if (!folder) throw new Error('no kitPackDir: run the install tier through vitest.config.ts');
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

/**
 * The packed kit, for shell block `id` whose first line is the pack line: that line is recorded
 * as run (it ran once, as typed, for every block that has it), and the block's other lines are
 * returned, to be run beside the tarball.
 */
export async function packedKitFor(id: string): Promise<{ kit: PackedKit; rest: string[] }> {
  const [first, ...rest] = commandsOf(id);
  expect(withoutComment(first!), `the first line of ${id}`).toBe(packLine());
  const kit = await packedKit();
  recordRan(id, first!);
  return { kit, rest };
}

/**
 * The packed kit, for shell block `id` whose first line is `npm ci` (`set-up`): the pack line
 * begins with that very line, run as typed in a fresh clone, so it is recorded as run there and
 * the block's other lines run in that clone. (An `npm ci` of its own, in a second fresh clone of
 * the same files, took a core for about 80 s beside the pack's in .ci/run: docs/performance.md.)
 */
export async function packedKitAfterNpmCi(id: string): Promise<{ kit: PackedKit; rest: string[] }> {
  const [first, ...rest] = commandsOf(id);
  expect(first, `the first line of ${id}`).toBe('npm ci');
  expect(packLine().startsWith(`${first} && `), 'the pack line begins with npm ci').toBe(true);
  const kit = await packedKit();
  recordRan(id, first!);
  return { kit, rest };
}

/** Makes `folder` hold the packed tarball, as the folder of a clone the pack line ran in does. */
export async function withTarball(folder: string, kit: PackedKit): Promise<string> {
  await mkdir(folder, { recursive: true });
  const copy = join(folder, TARBALL);
  await writeFile(copy, await readFile(kit.tarball));
  return copy;
}
