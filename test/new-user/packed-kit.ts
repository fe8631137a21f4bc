/**
 * The kit packed once a run for the install tier: the README's own line `npm ci && npm pack` (the
 * first line of the `install` block, and of `ci-vendor`), run as typed in a fresh clone of this
 * working tree (test/new-user/pack-in-clone.ts). The README's blocks install its tarball
 * (test/new-user, test/clone) and the package test checks it (test/package). Packing does not
 * depend on the msw major of an app, so one pack serves every file of the tier and both passes of
 * .ci/run (msw 2 on Node 20, msw 3 on Node 24): each used to run the line, or `npm pack`, itself,
 * five builds and three `npm ci` in .ci/run where one of each proves the same
 * (docs/performance.md).
 *
 * The first file to ask packs, under a lock, in the folder of the run
 * (packed-kit.global-setup.ts); the others wait for it, then use its clone and tarball. .ci/run
 * packs in that folder before the tier, beside its linters, with the same code: the tier's files
 * then find the pack done. A pack that failed fails every file that asks, with its output.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, inject } from 'vitest';
import { commandsOf } from '../docs/readme-plan.ts';
// Its `kitPackDir`, which inject() reads below.
import type {} from './packed-kit.global-setup.ts';
import { packInto, packLine, TARBALL, withoutComment, type PackedKit } from './pack-in-clone.ts';
import { recordRan } from './run-commands.ts';

export type { PackedKit };

let pending: Promise<PackedKit> | undefined;

/** The kit packed by the README's line in a fresh clone: once a run, by whichever file asks first. */
export function packedKit(): Promise<PackedKit> {
  pending ??= pack();
  return pending;
}

async function pack(): Promise<PackedKit> {
  const folder = inject('kitPackDir');
  if (!folder) throw new Error('no kitPackDir: run the install tier through vitest.config.ts');
  return packInto(folder);
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
